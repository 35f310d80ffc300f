/* perfdb doctor DB: the knobs (perfdb bench --set) that benches of a
 * database changed and did not write back (see doctor.h). */
#include "collect/bench/bench_knob.h"
#include "collect/bench/sysinfo.h"
#include "collect/doctor/doctor.h"
#include "lib/table.h"
#include "schema/db.h"

/* knob_state(k): what became of knob k, in words. */
static const char *knob_state(const struct knob_left *k)
{
	return !k->here ? "changed on another machine" : k->alive ? "set by a bench running now"
								  : "left changed by a bench that died";
}

/* doctor_knobs: see doctor.h. */
void doctor_knobs(struct doc *out, const char *db_path)
{
	struct table *t = table_new("knobs", "Knobs benches of the database changed and did not write back");
	int cpath = table_col(t, "path", COL_STR, 0), cstate = table_col(t, "state", COL_STR, 0);
	int corig = table_col(t, "original", COL_STR, 0), clabel = table_col(t, "label", COL_STR, 0);
	int cpid = table_col(t, "pid", COL_INT, 0), csince = table_col(t, "since", COL_STR, 0);
	struct sysinfo_facts f;
	char err[1024];
	size_t n = 0, dead = 0;
	sqlite3 *db = db_open_read(db_path, err, sizeof(err));
	struct knob_left *v = NULL;
	sysinfo_read(&f);
	if (db)
		v = bench_knobs_left(db, f.boot_id, &n);
	for (size_t i = 0; i < n; i++) {
		table_add_row(t);
		table_set_str(t, cpath, v[i].path);
		table_set_str(t, cstate, knob_state(&v[i]));
		table_set_str(t, corig, v[i].original);
		table_set_str(t, clabel, v[i].label);
		table_set_int(t, cpid, v[i].pid);
		table_set_str(t, csince, v[i].saved_at);
		dead += v[i].here && !v[i].alive;
	}
	if (!db)
		doc_note(out, "knobs: %s", err);
	else if (dead)
		doc_note(out, "%zu knob%s left changed: the next perfdb bench -o %s writes %s back", dead,
			 dead == 1 ? "" : "s", db_path, dead == 1 ? "it" : "them");
	else
		doc_note(out, "no knob left changed by a bench of %s", db_path);
	dv_table(doc_findings(out), t);
	bench_knobs_left_free(v, n);
	if (db)
		db_close(db);
}
