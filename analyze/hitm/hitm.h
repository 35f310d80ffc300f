/* Field attribution of memory samples (`perfdb hitm`): each sample's data
 * address is looked up in the object map (objects.h) and, for a typed
 * object, in its type's layout (layout.h), giving a field; per cacheline and field,
 * and per type and field over all lines, the HITMs, loads, stores, reader
 * and writer CPUs and code sites are added up, and each line gets a
 * verdict. Samples are attributed one at a time as c2c_load reads them
 * (hitm_add, or hitm_sink as its sink) and then forgotten: what is kept is
 * per line, field, code site, CPU and thread (hitm_rows.h), not per
 * sample.
 *
 * Fields: a typed object's member at the sample's offset ("lru_gen.bitmap",
 * "saved_auxv[3]", "<hole after mm_count>"); for an untyped object (a
 * kernel or ELF symbol, a variable of a scalar type, a type without a
 * layout) its name, with "+0xN" when the offset is not 0; for an address
 * in no known object, type "unknown object" and field "unknown object",
 * one per offset in the line.
 *
 * Verdict of a line, from the CPUs of its sampled loads (readers) and
 * stores (writers) per field W(f), R(f):
 *  - true sharing: a field written by two or more CPUs, or written by one
 *    CPU and read by another;
 *  - false sharing: a CPU writes field f while another CPU reads or writes
 *    a different field g of the line;
 *  - both can hold ("true and false sharing"); otherwise "no sharing seen"
 *    (one CPU, or no stores sampled: HITMs then come from unsampled
 *    stores). The detail names the fields and CPU counts. */
#ifndef PERFDB_HITM_H
#define PERFDB_HITM_H
#include <stddef.h>
#include <stdint.h>

#include "analyze/hitm/c2c_load.h"
#include "analyze/hitm/hitm_result.h"
#include "analyze/hitm/layout_load.h"
#include "analyze/hitm/objects.h"

/* hitm_begin(r, om, ls): starts an attribution into r (overwritten) with
 * the object map om (finished) and the layouts ls[session index]; both
 * must outlive r's use. */
void hitm_begin(struct hitm_result *r, const struct objmap *om, const struct layout_set *ls);

/* hitm_add(r, s): attributes sample s (c2c_load's, its line and site set;
 * samples in c2c_load's order) to an object and field and adds it up in r.
 * Returns its object (om index), -1 when none. */
int32_t hitm_add(struct hitm_result *r, const struct c2c_sample *s);

/* hitm_sink(r): a c2c_load sink calling hitm_add(r, ...) for each sample. */
struct c2c_sink hitm_sink(struct hitm_result *r);

/* hitm_finish(r, d): after the last hitm_add, with d the load the samples
 * came from: puts each line's fields in order of offset in the line
 * (fields[first..first+n)) and its offsets rows in order of offset and
 * site, adds up the fields per type and judges every line. */
void hitm_finish(struct hitm_result *r, const struct c2c_data *d);

/* hitm_result_free(r): frees r (finished or not) and zeroes it. */
void hitm_result_free(struct hitm_result *r);

#endif
