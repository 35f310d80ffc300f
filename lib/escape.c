/* Escaping strings and writing numbers for each output form: see escape.h. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/escape.h"

/* utf8_next(s, n, cp): decodes the sequence at s (n > 0 bytes left) and
 * returns its length; *cp is the code point, or -1 for an ill-formed
 * sequence, whose returned length is its maximal ill-formed subpart
 * (Unicode 3.9 "U+FFFD substitution of maximal subparts"). Overlongs,
 * surrogates and values above U+10FFFF are ill-formed. */
static size_t utf8_next(const unsigned char *s, size_t n, long *cp)
{
	unsigned c = s[0], lo = 0x80, hi = 0xBF;
	size_t len;
	long v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		v = c & 0x0F;
		lo = c == 0xE0 ? 0xA0 : lo;
		hi = c == 0xED ? 0x9F : hi;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		v = c & 0x07;
		lo = c == 0xF0 ? 0x90 : lo;
		hi = c == 0xF4 ? 0x8F : hi;
	} else {
		*cp = -1;
		return 1;
	}
	for (size_t i = 1; i < len; i++, lo = 0x80, hi = 0xBF) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*cp = -1;
			return i;
		}
		v = v << 6 | (s[i] & 0x3F);
	}
	*cp = v;
	return len;
}

/* esc_ctrl(b, cp): for text and md, writes a control character (C0 or
 * DEL) as \n, \r, \t or \xNN and returns true; false for anything else. */
static bool esc_ctrl(struct strbuf *b, long cp)
{
	if (cp == '\n')
		sb_puts(b, "\\n");
	else if (cp == '\r')
		sb_puts(b, "\\r");
	else if (cp == '\t')
		sb_puts(b, "\\t");
	else if (cp < 0x20 || cp == 0x7F)
		sb_printf(b, "\\x%02lx", cp);
	else
		return false;
	return true;
}

/* md_inline(cp, prev, next): whether the ASCII punctuation cp could be
 * read as GFM inline markup (emphasis, code span, link, strikethrough, an
 * entity) rather than shown: always for '`'; ']' before '(', '[' or ':'
 * (a link, an image, a link reference: "[lo, hi]" stays); a '*', '~' or
 * '_' that could close emphasis or strikethrough: one after a character
 * other than a blank, a '_' also before anything but a letter or digit
 * (without a closer an opener is shown as it is, so "_raw_spin_lock" and
 * a lone "*" stay); '&' before a letter or '#' (an entity). prev and next
 * are the neighbouring bytes, 0 at either end. */
static bool md_inline(long cp, unsigned char prev, unsigned char next)
{
	bool after_word = prev && prev != ' ';
	if (cp == '*' || cp == '~')
		return after_word;
	if (cp == '_')
		return after_word && !isalnum(next);
	if (cp == '&')
		return isalpha(next) || next == '#';
	if (cp == ']')
		return next == '(' || next == '[' || next == ':';
	return cp == '`';
}

/* esc_md(b, cp, prev, next): writes the md escape of cp (prev and next
 * are the neighbouring bytes, 0 at either end) and returns true, or false
 * when cp needs none. A CR directly before LF is dropped so CRLF gives a
 * single <br>. */
static bool esc_md(struct strbuf *b, long cp, unsigned char prev, unsigned char next)
{
	if (cp == '|' || cp == '\\' || cp == '<' || md_inline(cp, prev, next)) {
		sb_putc(b, '\\');
		sb_putc(b, (char)cp);
	} else if (cp == '\r' && next == '\n') {
		/* nothing: the LF writes the <br> */
	} else if (cp == '\r' || cp == '\n') {
		sb_puts(b, "<br>");
	} else {
		return esc_ctrl(b, cp);
	}
	return true;
}

/* esc_json(b, cp): writes the RFC 8259 escape of cp and returns true, or
 * false when cp is written as it is. */
static bool esc_json(struct strbuf *b, long cp)
{
	static const char from[] = "\"\\\b\f\n\r\t", to[] = "\"\\bfnrt";
	const char *p = cp > 0 && cp < 0x80 ? strchr(from, (int)cp) : NULL;
	if (p) {
		sb_putc(b, '\\');
		sb_putc(b, to[p - from]);
	} else if (cp < 0x20 || cp == 0x7F || cp == 0x2028 || cp == 0x2029) {
		sb_printf(b, "\\u%04lx", cp);
	} else {
		return false;
	}
	return true;
}

/* esc_xml(b, cp): writes the XML escape of cp and returns true, or false
 * when cp is written as it is. */
static bool esc_xml(struct strbuf *b, long cp)
{
	static const char from[] = "&<>\"'";
	static const char *const to[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	const char *p = cp > 0 && cp < 0x80 ? strchr(from, (int)cp) : NULL;
	if (p)
		sb_puts(b, to[p - from]);
	else if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF)
		sb_puts(b, "\xEF\xBF\xBD");
	else
		return false;
	return true;
}

/* esc_append: see escape.h. */
void esc_append(struct strbuf *b, const char *s, enum esc mode)
{
	const unsigned char *start = (const unsigned char *)s, *p = start;
	size_t n = strlen(s);
	while (n) {
		long cp;
		size_t len = utf8_next(p, n, &cp);
		bool done = false;
		if (cp < 0)
			sb_puts(b, mode == ESC_JSON ? "\\ufffd" : "\xEF\xBF\xBD");
		else if (mode == ESC_TEXT)
			done = esc_ctrl(b, cp);
		else if (mode == ESC_MD)
			done = esc_md(b, cp, p > start ? p[-1] : 0, n > 1 ? p[1] : 0);
		else if (mode == ESC_JSON)
			done = esc_json(b, cp);
		else if (mode == ESC_XML)
			done = esc_xml(b, cp);
		if (cp >= 0 && !done)
			sb_putn(b, (const char *)p, len);
		p += len;
		n -= len;
	}
}

/* esc_dup: see escape.h. */
char *esc_dup(const char *s, enum esc mode)
{
	struct strbuf b = { 0 };
	esc_append(&b, s, mode);
	return sb_take(&b);
}

/* utf8_width(s): number of code points in the valid UTF-8 string s (the
 * display width, ignoring double-width and combining characters). */
size_t utf8_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

/* num_short: see escape.h. */
void num_short(struct strbuf *b, double v, bool point)
{
	char buf[40];
	int p = 1;
	for (; p < 17; p++) {
		snprintf(buf, sizeof(buf), "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*e", p - 1, v);
	int e = atoi(strchr(buf, 'e') + 1);
	if (e >= -4 && e < 16)
		snprintf(buf, sizeof(buf), "%.*f", p - 1 - e > 0 ? p - 1 - e : 0, v);
	sb_puts(b, buf);
	if (point && !strpbrk(buf, ".e"))
		sb_puts(b, ".0");
}

/* num_nonfinite: see escape.h. */
bool num_nonfinite(struct strbuf *b, double v)
{
	if (isnan(v))
		sb_puts(b, "nan");
	else if (isinf(v))
		sb_puts(b, v < 0 ? "-inf" : "inf");
	else
		return false;
	return true;
}

