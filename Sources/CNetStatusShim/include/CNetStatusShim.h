#ifndef CNETSTATUS_SHIM_H
#define CNETSTATUS_SHIM_H

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

// ThreadSanitizer cannot see the futex inside Swift's `Mutex` on Linux. These weak references resolve to
// the TSan runtime when it is linked (swift test --sanitize=thread) and to nothing otherwise.
extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));

static inline void cnetstatus_tsan_acquire(void *addr) {
  if (__tsan_acquire) __tsan_acquire(addr);
}

static inline void cnetstatus_tsan_release(void *addr) {
  if (__tsan_release) __tsan_release(addr);
}
#endif

#endif
