/* The verbs of perfdb: one function per verb, each taking the arguments
 * after the verb name (argv[0] is the verb) and returning the exit status:
 * 0 success, 1 usage error, 2 bad input or a failed run. */
#ifndef PERFDB_CMD_H
#define PERFDB_CMD_H
#include "builtin/builtin.h"

int cmd_hitm(int argc, char **argv);
int cmd_watch(int argc, char **argv);

#endif
