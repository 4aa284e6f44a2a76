// libpq, PostgreSQL's client library (libpq-dev). Debian installs its headers in /usr/include/postgresql
// (`pg_config --includedir`); the package also names that folder through pkg-config's libpq.pc.
#include <postgresql/libpq-fe.h>
