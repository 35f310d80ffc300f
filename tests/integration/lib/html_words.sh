# html_words_whole HTML: opens HTML in headless chromium at 1280 px and
# succeeds when it has table cells and none of their words is broken
# across lines (a column squeezed narrower than a word); prints chromium's
# count as a "# " line when not. Needs chromium and $T. Sourced.
html_words_whole() {
	python3 - "$1" "$T/measure.html" <<'PY'
import sys
# a copy of the page with a script that finds the words of table cells
# that chromium broke across lines (a column narrower than a word)
js = """<script>
var bad = [];
document.querySelectorAll("td, th").forEach(function (c) {
  var w = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
  for (var n = w.nextNode(); n; n = w.nextNode()) {
    var re = /\\S+/g, m;
    while ((m = re.exec(n.data))) {
      var r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      var tops = new Set(Array.from(r.getClientRects()).map(function (x) { return Math.round(x.top); }));
      if (tops.size > 1) bad.push(m[0]);
    }
  }
});
var p = document.createElement("pre");
p.textContent = "cells: " + document.querySelectorAll("td").length + "; broken words: " + bad.length + " " + bad.slice(0, 5).join(" ");
p.id = "measured";
document.body.appendChild(p);
</script>"""
open(sys.argv[2], "w").write(open(sys.argv[1]).read().replace("</body>", js + "</body>"))
PY
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$T/chromium" --window-size=1280,4000 --dump-dom \
		"file://$T/measure.html" >"$T/dom.html" 2>/dev/null
	grep -Eq "cells: [1-9][0-9]*; broken words: 0 " "$T/dom.html" || { grep -o "cells: .*" "$T/dom.html" | sed "s/^/# /"; false; }
}
