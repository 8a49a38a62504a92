#include <pulse/pulseaudio.h>
#include <signal.h>
#include <sys/prctl.h>

// prctl is variadic, which Swift cannot call: the player asks to be killed with its parent.
static inline int manna_play_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); }
