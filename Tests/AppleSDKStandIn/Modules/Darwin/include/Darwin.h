// The C half of the Darwin stand-in (Tests/AppleSDKStandIn/README.md): the part of Darwin's C library that code
// compiled for Apple platforms calls, declared with Darwin's own types and numbers (x86_64: `mode_t` is 16 bits,
// `ENOBUFS` is 55, `O_CLOEXEC` is 0x1000000), so that the Swift importer sees what it sees in Apple's SDK. Variadic
// functions (`open`, `fcntl`) are not importable; as in Apple's overlay they are declared in Darwin.swift.
#ifndef NETSTATUS_DARWIN_STAND_IN_H
#define NETSTATUS_DARWIN_STAND_IN_H

typedef signed char __int8_t;
typedef unsigned char __uint8_t;
typedef short __int16_t;
typedef unsigned short __uint16_t;
typedef int __int32_t;
typedef unsigned int __uint32_t;
typedef long long __int64_t;
typedef unsigned long long __uint64_t;
typedef __int8_t int8_t;
typedef __uint8_t uint8_t;
typedef __int16_t int16_t;
typedef __uint16_t uint16_t;
typedef __int32_t int32_t;
typedef __uint32_t uint32_t;
typedef __int64_t int64_t;
typedef __uint64_t uint64_t;
typedef unsigned long size_t;
typedef long ssize_t;
typedef long __darwin_time_t;
typedef __darwin_time_t time_t;
typedef __uint16_t mode_t;
typedef __int32_t dev_t;
typedef __uint16_t nlink_t;
typedef __uint64_t ino_t;
typedef __uint32_t uid_t;
typedef __uint32_t gid_t;
typedef __int64_t off_t;
typedef __int64_t blkcnt_t;
typedef __int32_t blksize_t;
typedef __int32_t pid_t;

struct timespec {
  __darwin_time_t tv_sec;
  long tv_nsec;
};

struct stat {
  dev_t st_dev;
  mode_t st_mode;
  nlink_t st_nlink;
  ino_t st_ino;
  uid_t st_uid;
  gid_t st_gid;
  dev_t st_rdev;
  struct timespec st_atimespec;
  struct timespec st_mtimespec;
  struct timespec st_ctimespec;
  struct timespec st_birthtimespec;
  off_t st_size;
  blkcnt_t st_blocks;
  blksize_t st_blksize;
  __uint32_t st_flags;
  __uint32_t st_gen;
  __int32_t st_lspare;
  __int64_t st_qspare[2];
};

int stat(const char *_Nullable path, struct stat *_Nullable buf);
int lstat(const char *_Nullable path, struct stat *_Nullable buf);
int fstat(int fd, struct stat *_Nullable buf);
ssize_t read(int fd, void *_Nullable buf, size_t count);
ssize_t write(int fd, const void *_Nullable buf, size_t count);
int close(int fd);
ssize_t readlink(const char *_Nullable path, char *_Nullable buf, size_t size);
char *_Nullable strerror(int errnum);
int *_Nonnull __error(void);

typedef enum {
  _CLOCK_REALTIME = 0,
  _CLOCK_MONOTONIC = 6,
  _CLOCK_MONOTONIC_RAW = 4,
  _CLOCK_UPTIME_RAW = 8,
} clockid_t;
int clock_gettime(clockid_t clock_id, struct timespec *_Nullable tp);

typedef __uint32_t socklen_t;
typedef __uint8_t sa_family_t;
#define AF_UNSPEC 0
#define AF_INET 2
#define AF_INET6 30
#define INET_ADDRSTRLEN 16
#define INET6_ADDRSTRLEN 46
int inet_pton(int af, const char *_Nullable src, void *_Nullable dst);
const char *_Nullable inet_ntop(int af, const void *_Nullable src, char *_Nullable dst, socklen_t size);

struct _opaque_pthread_mutex_t {
  long __sig;
  char __opaque[56];
};
struct _opaque_pthread_mutexattr_t {
  long __sig;
  char __opaque[8];
};
typedef struct _opaque_pthread_mutex_t pthread_mutex_t;
typedef struct _opaque_pthread_mutexattr_t pthread_mutexattr_t;
#define PTHREAD_MUTEX_NORMAL 0
#define PTHREAD_MUTEX_ERRORCHECK 1
#define PTHREAD_MUTEX_RECURSIVE 2
int pthread_mutex_init(pthread_mutex_t *_Nonnull mutex, const pthread_mutexattr_t *_Nullable attr);
int pthread_mutex_destroy(pthread_mutex_t *_Nonnull mutex);
int pthread_mutex_lock(pthread_mutex_t *_Nonnull mutex);
int pthread_mutex_unlock(pthread_mutex_t *_Nonnull mutex);
int pthread_mutexattr_init(pthread_mutexattr_t *_Nonnull attr);
int pthread_mutexattr_destroy(pthread_mutexattr_t *_Nonnull attr);
int pthread_mutexattr_settype(pthread_mutexattr_t *_Nonnull attr, int type);

#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR 0x0002
#define O_NONBLOCK 0x00000004
#define O_APPEND 0x00000008
#define O_NOFOLLOW 0x00000100
#define O_CREAT 0x00000200
#define O_TRUNC 0x00000400
#define O_EXCL 0x00000800
#define O_DIRECTORY 0x00100000
#define O_CLOEXEC 0x01000000

#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ECHILD 10
#define EDEADLK 11
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define ENOTBLK 15
#define EBUSY 16
#define EEXIST 17
#define EXDEV 18
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENFILE 23
#define EMFILE 24
#define ENOTTY 25
#define ETXTBSY 26
#define EFBIG 27
#define ENOSPC 28
#define ESPIPE 29
#define EROFS 30
#define EMLINK 31
#define EPIPE 32
#define EDOM 33
#define ERANGE 34
#define EAGAIN 35
#define EWOULDBLOCK EAGAIN
#define EINPROGRESS 36
#define EALREADY 37
#define ENOTSOCK 38
#define EDESTADDRREQ 39
#define EMSGSIZE 40
#define EPROTOTYPE 41
#define ENOPROTOOPT 42
#define EPROTONOSUPPORT 43
#define ESOCKTNOSUPPORT 44
#define ENOTSUP 45
#define EPFNOSUPPORT 46
#define EAFNOSUPPORT 47
#define EADDRINUSE 48
#define EADDRNOTAVAIL 49
#define ENETDOWN 50
#define ENETUNREACH 51
#define ENETRESET 52
#define ECONNABORTED 53
#define ECONNRESET 54
#define ENOBUFS 55
#define EISCONN 56
#define ENOTCONN 57
#define ESHUTDOWN 58
#define ETOOMANYREFS 59
#define ETIMEDOUT 60
#define ECONNREFUSED 61
#define ELOOP 62
#define ENAMETOOLONG 63
#define EHOSTDOWN 64
#define EHOSTUNREACH 65
#define ENOTEMPTY 66
#define EPROCLIM 67
#define EUSERS 68
#define EDQUOT 69
#define ENOLCK 77
#define ENOSYS 78
#define EOVERFLOW 84
#define ECANCELED 89
#define EIDRM 90
#define ENOMSG 91
#define EILSEQ 92
#define EBADMSG 94
#define ENODATA 96
#define ENOLINK 97
#define EPROTO 100
#define ETIME 101
#define EOPNOTSUPP 102

// <unistd.h> (Libc include/unistd.h): the standard descriptors, access(2)'s modes (xnu bsd/sys/unistd.h) and the
// calls NetStatus's command-line tool makes, unannotated as Darwin declares them.
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define X_OK (1 << 0)
#define W_OK (1 << 1)
int access(const char *, int);
int dup2(int, int);
uid_t geteuid(void);
int isatty(int);
int pipe(int[2]);
int unlink(const char *);

// <stdlib.h> (Libc include/_stdlib.h; `__dead2` is `__attribute__((__noreturn__))`) and <string.h>.
void exit(int) __attribute__((__noreturn__));
char *getenv(const char *);
size_t strlen(const char *__s);

// <stdio.h> (Libc include/_stdio.h): FILE is a complete structure on Darwin.
typedef __int64_t __darwin_off_t;
typedef __darwin_off_t fpos_t;
struct __sbuf {
  unsigned char *_base;
  int _size;
};
struct __sFILEX;
typedef struct __sFILE {
  unsigned char *_p;
  int _r;
  int _w;
  short _flags;
  short _file;
  struct __sbuf _bf;
  int _lbfsize;
  void *_cookie;
  int (*_Nullable _close)(void *);
  int (*_Nullable _read)(void *, char *, int __n);
  fpos_t (*_Nullable _seek)(void *, fpos_t, int);
  int (*_Nullable _write)(void *, const char *, int __n);
  struct __sbuf _ub;
  struct __sFILEX *_extra;
  int _ur;
  unsigned char _ubuf[3];
  unsigned char _nbuf[1];
  struct __sbuf _lb;
  int _blksize;
  fpos_t _offset;
} FILE;
int fclose(FILE *);
char *fgets(char *__restrict, int __size, FILE *);
FILE *fopen(const char *__restrict __filename, const char *__restrict __mode);
int rename(const char *__old, const char *__new);

// <fnmatch.h> (Libc include/fnmatch.h).
int fnmatch(const char *, const char *, int);

// <time.h> (Libc include/_time.h): Darwin's `struct tm`, with tm_gmtoff and tm_zone.
struct tm {
  int tm_sec;
  int tm_min;
  int tm_hour;
  int tm_mday;
  int tm_mon;
  int tm_year;
  int tm_wday;
  int tm_yday;
  int tm_isdst;
  long tm_gmtoff;
  char *tm_zone;
};
struct tm *localtime_r(const time_t *__restrict, struct tm *__restrict);

// <sys/poll.h> (xnu bsd/sys/poll.h).
#define POLLIN 0x0001
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020
struct pollfd {
  int fd;
  short events;
  short revents;
};
typedef unsigned int nfds_t;
int poll(struct pollfd *, nfds_t, int);

// <sys/fcntl.h> (xnu bsd/sys/fcntl.h): fcntl(2)'s commands and flag. `fcntl` itself is variadic: Darwin.swift.
#define F_GETFD 1
#define F_SETFD 2
#define F_SETFL 4
#define FD_CLOEXEC 1

// <sys/signal.h> (xnu bsd/sys/signal.h). SIG_IGN, a cast, is not importable: Apple's overlay declares it
// (Darwin.swift).
#define SIGINT 2
#define SIGQUIT 3
#define SIGPIPE 13
#define SIGTERM 15
typedef void (*sig_t)(int);
void (*signal(int, void (*)(int)))(int);

// <pthread.h> (libpthread include/sys/_pthread/_pthread_types.h, LP64 sizes, and include/pthread/pthread.h, whose
// declarations are in an assume_nonnull region; the Swift importer defines SWIFT_SDK_OVERLAY_PTHREAD_EPOCH=1, so
// pthread_create is the nullable declaration: the start routine takes and returns `void * _Nullable`).
struct __darwin_pthread_handler_rec {
  void (*__routine)(void *);
  void *__arg;
  struct __darwin_pthread_handler_rec *__next;
};
struct _opaque_pthread_attr_t {
  long __sig;
  char __opaque[56];
};
struct _opaque_pthread_t {
  long __sig;
  struct __darwin_pthread_handler_rec *__cleanup_stack;
  char __opaque[8176];
};
typedef struct _opaque_pthread_attr_t __darwin_pthread_attr_t;
typedef struct _opaque_pthread_t *__darwin_pthread_t;
typedef __darwin_pthread_attr_t pthread_attr_t;
typedef __darwin_pthread_t pthread_t;
#pragma clang assume_nonnull begin
int pthread_create(pthread_t _Nullable *_Nonnull __restrict, const pthread_attr_t *_Nullable __restrict,
                   void *_Nullable (*_Nonnull)(void *_Nullable), void *_Nullable __restrict);
int pthread_detach(pthread_t);
#pragma clang assume_nonnull end

#endif
