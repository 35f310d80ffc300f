/* pg_ddl: prints the PostgreSQL schema perfdb push creates on a new
 * server database (schema/pg_schema.h), for the schema tests and for
 * reading. */
#include <stdio.h>
#include <stdlib.h>
#include "schema/pg_schema.h"

int main(void)
{
	char *ddl = pg_schema_ddl();
	int rc = fputs(ddl, stdout) < 0 ? 2 : 0;
	free(ddl);
	return rc;
}
