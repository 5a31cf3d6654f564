#ifndef CNETSTATUS_SHIM_H
#define CNETSTATUS_SHIM_H

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/magic.h>
#include <linux/netlink.h>
#include <linux/nsfs.h>
#include <linux/rtnetlink.h>

#include "CNetStatusSDBus.h"

// ThreadSanitizer cannot see the futex inside Swift's `Mutex` on Linux. These weak references resolve to
// the TSan runtime when it is linked (swift test --sanitize=thread) and to nothing otherwise.
extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));

/// Whether ThreadSanitizer's runtime is linked in (a `--sanitize=thread` build): without it, a lock needs no
/// annotation, and its address is not worked out.
static inline int cnetstatus_tsan_linked(void) { return __tsan_acquire != 0; }

static inline void cnetstatus_tsan_acquire(void *addr) {
  if (__tsan_acquire && addr) __tsan_acquire(addr);
}

static inline void cnetstatus_tsan_release(void *addr) {
  if (__tsan_release && addr) __tsan_release(addr);
}

// setns(2) is only declared by <sched.h> under _GNU_SOURCE, which the Glibc module is not built with.
extern int setns(int fd, int nstype);

// pthread_setname_np is only declared by <pthread.h> under _GNU_SOURCE, too.
extern int pthread_setname_np(pthread_t thread, const char *name);

/// Names the calling thread (at most 15 characters), for top -H, /proc/PID/task/TID/comm and debuggers.
static inline int cns_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

/// Moves the calling thread into the network namespace open at `fd` (setns(fd, CLONE_NEWNET)).
static inline int cns_setns_net(int fd) { return setns(fd, 0x40000000 /* CLONE_NEWNET */); }

/// The namespace type of the nsfs file open at `fd` (ioctl NS_GET_NSTYPE; Linux 4.11+), or -1 with errno.
static inline int cns_ns_get_nstype(int fd) { return ioctl(fd, NS_GET_NSTYPE); }

/// CLONE_NEWNET, the namespace type of a network namespace.
static inline int cns_clone_newnet(void) { return 0x40000000; }

/// Stores in `*type` the magic number of the filesystem holding the file open at `fd` (fstatfs(2)'s f_type).
/// Returns 0, or -1 with errno. (<sys/vfs.h> is not part of the Glibc module.)
static inline int cns_fstatfs_type(int fd, long *type) {
  struct statfs info;
  if (fstatfs(fd, &info) != 0) return -1;
  *type = (long)info.f_type;
  return 0;
}

/// Stores in `*type` the magic number of the filesystem holding `path`, following symbolic links (statfs(2)).
/// Returns 0, or -1 with errno.
static inline int cns_statfs_type(const char *path, long *type) {
  struct statfs info;
  if (statfs(path, &info) != 0) return -1;
  *type = (long)info.f_type;
  return 0;
}

/// A pidfd for process `pid` (pidfd_open(2), Linux 5.3+; glibc 2.36 declares it only in <sys/pidfd.h>): readable
/// (POLLIN) once the process has exited. Close-on-exec. Returns -1 with errno (ENOSYS before Linux 5.3, ESRCH when
/// there is no such process).
static inline int cns_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
  return (int)syscall(SYS_pidfd_open, pid, 0);
#else
  return (int)syscall(434 /* pidfd_open, the same number on every architecture */, pid, 0);
#endif
}

/// epoll, through plain integers: `struct epoll_event` is packed on x86_64, which Swift imports awkwardly.
/// Registers `fd` for `events` (level-triggered) with `data` as its tag.
static inline int cns_epoll_add(int epfd, int fd, uint64_t data, uint32_t events) {
  struct epoll_event event = {.events = events, .data = {.u64 = data}};
  return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

/// EPOLLIN: readable.
static inline uint32_t cns_epoll_input(void) { return EPOLLIN; }

/// EPOLLPRI: a priority event (what /proc/self/mountinfo reports when the mount table changed).
static inline uint32_t cns_epoll_priority(void) { return EPOLLPRI; }

/// Removes `fd` from the epoll set.
static inline int cns_epoll_del(int epfd, int fd) { return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL); }

/// Waits for at most `capacity` (at most 64) ready descriptors: their tags go to `tags`. Returns their number, or -1
/// with errno.
static inline int cns_epoll_wait(int epfd, uint64_t *tags, int capacity, int timeout) {
  struct epoll_event events[64];
  if (capacity > 64) capacity = 64;
  int count = epoll_wait(epfd, events, capacity, timeout);
  for (int index = 0; index < count; index++) tags[index] = events[index].data.u64;
  return count;
}

/// For the tests: whether descriptors `a` and `b` of this process name the same open file (kcmp(KCMP_FILE); 2 is
/// KCMP_FILE in linux/kcmp.h): 0 when they do, another non-negative number when not, -1 with errno (ENOSYS without
/// CONFIG_KCMP). A test that checks a descriptor was closed keeps a duplicate as a witness: the number, which a
/// test running in parallel may be given again at once, was closed if it is free or names another file.
static inline int cns_same_open_file(int a, int b) {
  pid_t process = getpid();
  return (int)syscall(SYS_kcmp, process, process, 2, a, b);
}

/// For the benchmarks' child processes: closes every descriptor from `lowest` up in the child
/// (posix_spawn_file_actions_addclosefrom_np, glibc 2.34+, declared only with _GNU_SOURCE), so that nothing of the
/// benchmark's reaches a process whose descriptors are counted.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int lowest);
static inline int cns_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
  return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

/// NSFS_MAGIC (0x6e736673): the filesystem of namespace files (/run/netns/NAME, /proc/PID/ns/net).
static inline long cns_nsfs_magic(void) { return NSFS_MAGIC; }

/// The name of errno value `code` (`"EISDIR"`), or NULL for a number Linux does not define (errno_names.c).
const char *cns_errno_name(int code);
#endif

#endif
