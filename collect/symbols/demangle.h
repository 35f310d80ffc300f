/* C++ and Rust symbol names as perf prints them: demangled without
 * parameters (ns::Box<int>::spin, not _ZN2ns3BoxIiE4spinEl nor
 * ns::Box<int>::spin(long)), through libiberty's demangler. */
#ifndef PERFDB_DEMANGLE_H
#define PERFDB_DEMANGLE_H

/* sym_demangle: the demangled form of name (malloc'ed), or NULL when name
 * is not a mangled C++ (_Z...) or Rust (_R..., legacy _ZN...h<hash>E) name
 * the demangler understands. A PLT entry's NAME@plt demangles as NAME
 * followed by "@plt", as perf names it. */
char *sym_demangle(const char *name);
#endif
