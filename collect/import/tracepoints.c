/* Tracepoint payloads into the sample row's field columns. A static list
 * names, for each tracepoint the analyzers use, its typed view and fields
 * (the columns of schema/tracepoints.sql, in order); fields are read with
 * libtraceevent's formats from the recording, bounds-checked against the
 * sample's raw size. Any other tracepoint's fields go, as one JSON object,
 * to the first field column (the generic `tracepoint` view); ipi_send_cpumask
 * has a table of its own, one row per target CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "lib/alloc.h"
#include "schema/batch.h"
#include "schema/db.h"
#include "collect/import/tracepoints.h"

/* K_SYM: a code pointer printed %pS (name+0xoff); K_FUNC: printed %ps. */
enum kind { K_INT, K_STR, K_SYM, K_FUNC, K_CPUMASK };

struct tp_field {
	const char *name;
	enum kind kind;
};

#define MAX_FIELDS 8

struct tp_spec {
	const char *system, *event, *table;
	struct tp_field f[MAX_FIELDS];
};

#define SYM(n) { n, K_SYM }
#define FUNC(n) { n, K_FUNC }
#define INT(n) { n, K_INT }
#define STR(n) { n, K_STR }

static const struct tp_spec specs[] = {
	{ "sched", "sched_switch", "sched_switch", { STR("prev_comm"), INT("prev_pid"),
	  INT("prev_prio"), INT("prev_state"), STR("next_comm"), INT("next_pid"), INT("next_prio") } },
	{ "sched", "sched_waking", "sched_waking", { STR("comm"), INT("pid"), INT("prio"), INT("target_cpu") } },
	{ "sched", "sched_wakeup", "sched_wakeup", { STR("comm"), INT("pid"), INT("prio"), INT("target_cpu") } },
	{ "sched", "sched_wakeup_new", "sched_wakeup_new", { STR("comm"), INT("pid"), INT("prio"), INT("target_cpu") } },
	{ "sched", "sched_migrate_task", "sched_migrate_task", { STR("comm"), INT("pid"), INT("prio"),
	  INT("orig_cpu"), INT("dest_cpu") } },
	{ "sched", "sched_process_fork", "sched_process_fork", { STR("parent_comm"), INT("parent_pid"),
	  STR("child_comm"), INT("child_pid") } },
	{ "sched", "sched_process_exec", "sched_process_exec", { STR("filename"), INT("pid"), INT("old_pid") } },
	{ "sched", "sched_process_exit", "sched_process_exit", { STR("comm"), INT("pid"), INT("prio"), INT("group_dead") } },
	{ "tlb", "tlb_flush", "tlb_flush", { INT("reason"), INT("pages") } },
	{ "ipi", "ipi_send_cpu", "ipi_send_cpu", { INT("cpu"), SYM("callsite"), SYM("callback") } },
	{ "ipi", "ipi_send_cpumask", "ipi_send_cpumask", { { "cpumask", K_CPUMASK }, SYM("callsite"), SYM("callback") } },
	{ "csd", "csd_queue_cpu", "csd_queue_cpu", { INT("cpu"), SYM("callsite"), FUNC("func"), INT("csd") } },
	{ "csd", "csd_function_entry", "csd_function_entry", { FUNC("func"), INT("csd") } },
	{ "csd", "csd_function_exit", "csd_function_exit", { FUNC("func"), INT("csd") } },
	{ "irq_vectors", "call_function_entry", "call_function_entry", { INT("vector") } },
	{ "irq_vectors", "call_function_exit", "call_function_exit", { INT("vector") } },
	{ "irq_vectors", "call_function_single_entry", "call_function_single_entry", { INT("vector") } },
	{ "irq_vectors", "call_function_single_exit", "call_function_single_exit", { INT("vector") } },
	{ "mmap_lock", "mmap_lock_start_locking", "mmap_lock_start_locking", { INT("mm"),
	  INT("memcg_id"), STR("memcg_path"), INT("write") } },
	{ "mmap_lock", "mmap_lock_acquire_returned", "mmap_lock_acquire_returned", { INT("mm"),
	  INT("memcg_id"), STR("memcg_path"), INT("write"), INT("success") } },
	{ "mmap_lock", "mmap_lock_released", "mmap_lock_released", { INT("mm"),
	  INT("memcg_id"), STR("memcg_path"), INT("write") } },
	{ "mmap", "exit_mmap", "exit_mmap", { INT("mm"), INT("mt") } },
};

/* Where one evsel's fields go. */
struct tp_sink {
	const struct tp_spec *spec;	/* NULL: generic JSON view */
	struct tep_event *event;
	struct tep_format_field *fields[MAX_FIELDS];
	struct batch *b;	/* the sample batch, or the cpumask table's own */
	int col0;		/* the first field's column in b */
	bool own;		/* b is the sink's: rows of its own */
};

/* find_spec: the typed-table spec of system:event, or NULL. */
static const struct tp_spec *find_spec(const char *system, const char *event)
{
	for (size_t i = 0; i < sizeof(specs) / sizeof(*specs); i++)
		if (!strcmp(specs[i].system, system) && !strcmp(specs[i].event, event))
			return &specs[i];
	return NULL;
}

/* spec_cols: the column names of a spec's table, sample_id first. */
static int spec_cols(const struct tp_spec *s, char names[][64], const char **cols)
{
	int n = 0;
	cols[n++] = "sample_id";
	for (int i = 0; i < MAX_FIELDS && s->f[i].name; i++) {
		const char *c = s->f[i].kind == K_CPUMASK ? "target_cpu" : s->f[i].name;
		cols[n++] = c;
		if (s->f[i].kind == K_SYM || s->f[i].kind == K_FUNC) {
			snprintf(names[i], 64, "%s_sym", c);
			cols[n++] = names[i];
		}
	}
	return n;
}

/* is_cpumask: whether the spec has a table of its own (a row per CPU). */
static bool is_cpumask(const struct tp_spec *spec)
{
	return spec && spec->f[0].kind == K_CPUMASK;
}

struct tp_sink *tp_sink_new(sqlite3 *db, struct sqlq *q, struct tep_handle *tep, int config,
			    struct batch *samples, int col0)
{
	struct tp_sink *k = xcalloc(1, sizeof(*k));
	char names[MAX_FIELDS][64];
	const char *cols[2 * MAX_FIELDS + 1];
	int ncols = 0;
	k->event = tep ? tep_find_event(tep, config) : NULL;
	if (k->event)
		k->spec = find_spec(k->event->system, k->event->name);
	for (int i = 0; k->spec && i < MAX_FIELDS && k->spec->f[i].name; i++)
		k->fields[i] = tep_find_field(k->event, k->spec->f[i].name);
	if (k->spec)
		ncols = spec_cols(k->spec, names, cols);
	if (is_cpumask(k->spec)) {
		k->b = batch_new(db, q, k->spec->table, cols, ncols);
		k->col0 = 1;
		k->own = true;
	} else if (ncols - 1 <= TP_FIELD_COLS) {
		k->b = samples;
		k->col0 = col0;
	}
	if (!k->b) {
		free(k);
		return NULL;
	}
	return k;
}

void tp_sink_free(struct tp_sink *k)
{
	if (!k)
		return;
	if (k->own)
		batch_free(k->b);
	free(k);
}

/* field_in: whether field f lies inside a payload of size bytes. */
static bool field_in(const struct tep_format_field *f, uint32_t size)
{
	return f->offset >= 0 && f->size >= 0 &&
	       (uint64_t)f->offset + (uint64_t)f->size <= size;
}

/* read_int: field f of the payload as a (sign-extended) integer. */
static bool read_int(struct tep_handle *tep, const struct tep_format_field *f,
		     const uint8_t *raw, uint32_t size, int64_t *v)
{
	unsigned long long u;
	int bits;
	if (!field_in(f, size) || f->size < 1 || f->size > 8)
		return false;
	u = tep_read_number(tep, raw + f->offset, f->size);
	bits = 8 * f->size;
	if (f->flags & TEP_FIELD_IS_SIGNED && bits < 64 && (u >> (bits - 1)) & 1)
		u |= ~0ULL << bits;
	*v = (int64_t)u;
	return true;
}

/* dyn_range: the bytes of a __data_loc / __rel_loc field, bounds-checked. */
static bool dyn_range(struct tep_handle *tep, const struct tep_format_field *f,
		      const uint8_t *raw, uint32_t size, uint32_t *off, uint32_t *len)
{
	uint32_t v;
	if (!field_in(f, size) || f->size != 4)
		return false;
	v = (uint32_t)tep_read_number(tep, raw + f->offset, 4);
	*off = v & 0xffff;
	*len = v >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += (uint32_t)(f->offset + f->size);
	return (uint64_t)*off + *len <= size;
}

/* str_bytes: where a char array or dynamic string field's bytes lie in
 * the payload: *off, and *len of them. */
static bool str_bytes(struct tep_handle *tep, const struct tep_format_field *f,
		      const uint8_t *raw, uint32_t size, uint32_t *off, uint32_t *len)
{
	*off = (uint32_t)f->offset;
	*len = (uint32_t)f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		return dyn_range(tep, f, raw, size, off, len);
	return field_in(f, size);
}

/* read_str: a char array or dynamic string field, NUL-terminated, in buf. */
static bool read_str(struct tep_handle *tep, const struct tep_format_field *f,
		     const uint8_t *raw, uint32_t size, char *buf, size_t blen)
{
	uint32_t off, len, n;
	if (!str_bytes(tep, f, raw, size, &off, &len))
		return false;
	n = len < blen - 1 ? len : (uint32_t)blen - 1;
	memcpy(buf, raw + off, n);
	buf[n] = 0;
	return true;
}

/* STR_MAX: the bytes of a string field stored (as read_str into 256). */
#define STR_MAX 255

/* set_str: a string field into column col of the current row, read in
 * place: up to its first NUL, at most STR_MAX bytes; NULL when absent. */
static void set_str(struct tp_sink *k, int col, const struct tep_format_field *f,
		    const uint8_t *raw, uint32_t size)
{
	uint32_t off, len;
	if (f && str_bytes(k->event->tep, f, raw, size, &off, &len))
		batch_text_n(k->b, col, (const char *)raw + off,
			     strnlen((const char *)raw + off, len < STR_MAX ? len : STR_MAX));
	else
		batch_null(k->b, col);
}

/* set_field: sets spec field i of the current row at column *col on. */
static void set_field(struct tp_sink *k, struct tp_ctx *c, int i, int *col,
		      const uint8_t *raw, uint32_t size)
{
	const struct tep_format_field *f = k->fields[i];
	struct tep_handle *tep = k->event->tep;
	char buf[256];
	const char *sym;
	int64_t v;
	bool have;
	switch (k->spec->f[i].kind) {
	case K_STR:
		set_str(k, (*col)++, f, raw, size);
		break;
	case K_INT:
	case K_SYM:
	case K_FUNC:
		have = f && read_int(tep, f, raw, size, &v);
		if (have)
			batch_int(k->b, (*col)++, v);
		else
			batch_null(k->b, (*col)++);
		if (k->spec->f[i].kind == K_INT)
			break;
		sym = have ? c->ksym(c->ctx, (uint64_t)v, k->spec->f[i].kind == K_SYM,
				     buf, sizeof(buf)) : NULL;
		if (sym)
			batch_text(k->b, (*col)++, sym);
		else
			batch_null(k->b, (*col)++);
		break;
	case K_CPUMASK:
		(*col)++;	/* set per target CPU by insert_cpumask */
		break;
	}
}

/* set_fields: every spec field of the current row (and the sample id,
 * in a table of the sink's own). */
static void set_fields(struct tp_sink *k, struct tp_ctx *c, int64_t sample_id,
		       const uint8_t *raw, uint32_t size)
{
	int col = k->col0;
	if (k->own)
		batch_int(k->b, 0, sample_id);
	for (int i = 0; i < MAX_FIELDS && k->spec->f[i].name; i++)
		set_field(k, c, i, &col, raw, size);
}

/* insert_cpumask: one row per CPU set in the cpumask field (field 0). */
static int insert_cpumask(struct tp_sink *k, struct tp_ctx *c, int64_t sample_id,
			  const uint8_t *raw, uint32_t size, char *err, size_t errlen)
{
	struct tep_handle *tep = k->event->tep;
	uint32_t off, len, lsz = (uint32_t)tep_get_long_size(tep);
	if (!k->fields[0] || !dyn_range(tep, k->fields[0], raw, size, &off, &len))
		return 0;
	if (lsz != 4 && lsz != 8)
		lsz = 8;
	for (uint32_t w = 0; w + lsz <= len; w += lsz) {
		unsigned long long bits = tep_read_number(tep, raw + off + w, (int)lsz);
		for (uint32_t b = 0; b < 8 * lsz; b++) {
			if (!(bits >> b & 1))
				continue;
			set_fields(k, c, sample_id, raw, size);
			batch_int(k->b, k->col0, (int64_t)(w * 8 + b));
			if (batch_row(k->b))
				return snprintf(err, errlen, "%s", batch_error(k->b)), -1;
		}
	}
	return 0;
}

/* json_escape: s as a JSON string body appended to out at *n. */
static void json_escape(const char *s, char *out, size_t *n, size_t len)
{
	for (; *s && *n + 8 < len; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			*n += (size_t)snprintf(out + *n, len - *n, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			*n += (size_t)snprintf(out + *n, len - *n, "\\u%04x", ch);
		else
			out[(*n)++] = (char)ch;
	}
	out[*n] = 0;
}

/* json_array: an array field (fixed, or __data_loc) of the payload as a
 * JSON array of its elements' values at item + *m (cap bytes in all),
 * elements that no longer fit left out; false when its bytes lie outside
 * the payload. */
static bool json_array(struct tp_sink *k, const struct tep_format_field *f, const uint8_t *raw,
		       uint32_t size, char *item, size_t *m, size_t cap)
{
	struct tep_handle *tep = k->event->tep;
	uint32_t off = (uint32_t)f->offset, len = (uint32_t)f->size, es = f->elementsize;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (!dyn_range(tep, f, raw, size, &off, &len))
			return false;
	} else if (!field_in(f, size)) {
		return false;
	}
	if (es != 1 && es != 2 && es != 4 && es != 8)
		es = 1;
	item[(*m)++] = '[';
	for (uint32_t i = 0; i + es <= len && *m + 32 < cap; i += es) {
		unsigned long long u = tep_read_number(tep, raw + off + i, (int)es);
		if (f->flags & TEP_FIELD_IS_SIGNED && es < 8 && (u >> (8 * es - 1)) & 1)
			u |= ~0ULL << (8 * es);
		*m += (size_t)snprintf(item + *m, cap - *m, "%s%lld", i ? "," : "", (long long)u);
	}
	item[(*m)++] = ']';
	return true;
}

/* json_item: one field of the payload as `"name":value` (preceded by a
 * comma unless first) in item (cap bytes); its length. Strings are JSON
 * strings, arrays (fixed or __data_loc) JSON arrays of numbers, numbers
 * numbers, what cannot be read null. Names and strings are escaped and
 * cut to fit, so whatever the format says, it fits. */
static size_t json_item(struct tp_sink *k, const struct tep_format_field *f, bool first,
			const uint8_t *raw, uint32_t size, char *item, size_t cap)
{
	char buf[512];
	size_t m = 0;
	int64_t v;
	int w;
	if (!first)
		item[m++] = ',';
	item[m++] = '"';
	json_escape(f->name, item, &m, cap / 3);
	item[m++] = '"';
	item[m++] = ':';
	if ((f->flags & TEP_FIELD_IS_STRING) && read_str(k->event->tep, f, raw, size, buf, sizeof(buf))) {
		item[m++] = '"';
		json_escape(buf, item, &m, cap - 2);
		item[m++] = '"';
	} else if (!(f->flags & TEP_FIELD_IS_STRING) && (f->flags & TEP_FIELD_IS_ARRAY) &&
		   json_array(k, f, raw, size, item, &m, cap - 1)) {
		/* the elements, as numbers */
	} else {
		bool num = !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
			   read_int(k->event->tep, f, raw, size, &v);
		w = num ? snprintf(item + m, cap - m, "%lld", (long long)v) :
			  snprintf(item + m, cap - m, "null");
		if (w > 0)
			m += (size_t)w < cap - m ? (size_t)w : cap - m - 1;
	}
	item[m] = 0;
	return m;
}

/* json_fields: every field of the payload as one JSON object in out (len
 * bytes); fields that no longer fit are left out, the object stays whole. */
static void json_fields(struct tp_sink *k, const uint8_t *raw, uint32_t size,
			char *out, size_t len)
{
	struct tep_format_field *f;
	char item[1536];
	size_t n = 0, m;
	out[n++] = '{';
	for (f = k->event ? k->event->format.fields : NULL; f; f = f->next) {
		m = json_item(k, f, n == 1, raw, size, item, sizeof(item));
		if (n + m + 2 > len)
			break;
		memcpy(out + n, item, m);
		n += m;
	}
	out[n++] = '}';
	out[n] = 0;
}

int tp_sink_insert(struct tp_sink *k, struct tp_ctx *c, int64_t sample_id,
		   const uint8_t *raw, uint32_t size, char *err, size_t errlen)
{
	char json[4096];
	if (k->own)
		return insert_cpumask(k, c, sample_id, raw, size, err, errlen);
	if (k->spec) {
		set_fields(k, c, sample_id, raw, size);
	} else {
		json_fields(k, raw, size, json, sizeof(json));
		batch_text(k->b, k->col0, json);
	}
	return 0;
}

int tp_sink_flush(struct tp_sink *k, char *err, size_t errlen)
{
	if (k->own && batch_flush(k->b))
		return snprintf(err, errlen, "%s", batch_error(k->b)), -1;
	return 0;
}

const char *tp_sink_table(const struct tp_sink *k)
{
	return k->spec ? k->spec->table : "tracepoint";
}

/* tp_spec_columns: see tracepoints.h. */
int tp_spec_columns(size_t i, const char **table, char cols[][64], int max)
{
	char names[MAX_FIELDS][64];
	const char *c[2 * MAX_FIELDS + 1];
	int n;
	if (i >= sizeof(specs) / sizeof(*specs))
		return -1;
	*table = specs[i].table;
	n = spec_cols(&specs[i], names, c);
	for (int j = 0; j < n && j < max; j++)
		snprintf(cols[j], 64, "%s", c[j]);
	return n < max ? n : max;
}
