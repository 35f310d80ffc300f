/* Escaping strings for each output form, and numbers in their shortest
 * exact form. Strings are UTF-8; ill-formed bytes are replaced by U+FFFD,
 * one per maximal ill-formed subsequence (as Python's "replace" does), so
 * every output is valid UTF-8 and JSON. */
#ifndef PERFDB_ESCAPE_H
#define PERFDB_ESCAPE_H
#include <stdbool.h>
#include <stddef.h>
#include "lib/strbuf.h"

/* ESC_NONE only repairs UTF-8 (csv); ESC_TEXT writes control characters
 * as \n, \r, \t or \xNN so a row stays one line; ESC_MD (a GFM table
 * cell, heading or list item that shows the string as it is) also
 * backslash-escapes '|', '\', '<', '`', a ']' before '(', '[' or ':', a
 * '*', '~' or '_' that could close emphasis (after a character other than
 * a blank; a '_' also before anything but a letter or digit) and an '&'
 * before a letter or '#', and turns CR/LF into <br>; ESC_JSON follows RFC 8259 ('"' and '\', \b \f \n \r \t, other
 * controls, DEL and U+2028/U+2029 as \u00XX/\u2028/\u2029, ill-formed
 * UTF-8 as \ufffd); ESC_XML for XML text and attribute values (SVG,
 * HTML): '&', '<', '>', '"' and '\'' as entities, control characters XML
 * cannot hold (all of C0 but tab, LF and CR) as U+FFFD. */
enum esc { ESC_NONE, ESC_TEXT, ESC_MD, ESC_JSON, ESC_XML };

/* esc_append(b, s, mode): appends s escaped for mode. */
void esc_append(struct strbuf *b, const char *s, enum esc mode);

/* esc_dup(s, mode): a malloc'd copy of s escaped for mode. */
char *esc_dup(const char *s, enum esc mode);

/* utf8_width(s): code points in the valid UTF-8 string s (the display
 * width, ignoring double-width and combining characters). */
size_t utf8_width(const char *s);

/* num_short(b, v, point): appends the finite v in the shortest form that
 * strtod reads back as v, fixed-point for exponents -4..15 and %e style
 * otherwise (Python's repr); point adds ".0" to a form without '.' or 'e'. */
void num_short(struct strbuf *b, double v, bool point);

/* num_nonfinite(b, v): appends "nan", "inf" or "-inf" and returns true
 * when v is not finite; returns false (appending nothing) otherwise. */
bool num_nonfinite(struct strbuf *b, double v);
#endif
