/*
 * Preloaded under valgrind 3.19 only (probe-bench.sh CALLGRIND=1): a Swift program with an async main
 * parks its main thread in libdispatch's sigsuspend, whose signal mask lies in read-only memory, and
 * valgrind 3.19 writes into that mask and crashes ("the 'impossible' happened"). This sigsuspend hands
 * the kernel a writable copy instead. Not part of bufprobe.
 *
 * Build: cc -O2 -shared -fPIC -o valgrind-sigsuspend.so valgrind-sigsuspend.c
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
