/* The verbs of perfdb: one function per verb, each taking the arguments
 * after the verb name (argv[0] is the verb) and returning the exit status:
 * 0 success, 1 usage error, 2 bad input or a failed run. */
#ifndef PERFDB_CMD_H
#define PERFDB_CMD_H
#include "builtin/builtin.h"

int cmd_import(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_ipis(int argc, char **argv);
int cmd_cgdiff(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_folded(int argc, char **argv);

#endif
