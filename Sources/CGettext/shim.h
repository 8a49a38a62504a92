// glibc's gettext (libintl.h, part of libc: nothing to link), which the Glibc module leaves out.
#include <libintl.h>
#include <locale.h>
