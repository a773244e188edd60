// LD_PRELOAD shim for redis-server: adds an offset, read from a shared 8-byte file, to every wall
// clock reading (CLOCK_REALTIME, gettimeofday, time), so a test can step the server's clock
// forwards or back at any moment, as an NTP step or a manual change would. The monotonic clock is
// left alone, as a real step leaves it.
//
// Why not Debian's libfaketime: its initialisation calls dlsym, which allocates; redis-server is
// linked against jemalloc, whose first allocation reads the clock, which re-enters libfaketime
// before it is ready ("Unexpected recursive calls to clock_gettime()", libfaketime issues #130 and
// #327): the server never starts. This shim never allocates: the real time comes from the
// clock_gettime system call, the offset from a shared mapping of the file named by
// EDGELOCK_CLOCK_OFFSET_FILE (a little-endian int64 of milliseconds; absent or unreadable: 0).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const int64_t no_offset = 0;
static const volatile int64_t *offset_ms = NULL;

static int64_t current_offset_ms(void) {
  const volatile int64_t *p = __atomic_load_n(&offset_ms, __ATOMIC_ACQUIRE);
  if (p == NULL) {
    const volatile int64_t *mapped = &no_offset;
    const char *path = getenv("EDGELOCK_CLOCK_OFFSET_FILE");
    if (path != NULL) {
      int fd = open(path, O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        void *m = mmap(NULL, sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
        close(fd);
        if (m != MAP_FAILED) mapped = (const volatile int64_t *)m;
      }
    }
    // Two threads may both map it on first use: either mapping reads the same file.
    __atomic_store_n(&offset_ms, mapped, __ATOMIC_RELEASE);
    p = mapped;
  }
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static int real_clock_gettime(clockid_t id, struct timespec *ts) {
  return (int)syscall(SYS_clock_gettime, id, ts);
}

static void shift(struct timespec *ts, int64_t ms) {
  int64_t ns = (int64_t)ts->tv_nsec + (ms % 1000) * 1000000;
  int64_t s = (int64_t)ts->tv_sec + ms / 1000;
  if (ns < 0) { ns += 1000000000; s -= 1; }
  if (ns >= 1000000000) { ns -= 1000000000; s += 1; }
  ts->tv_sec = (time_t)s;
  ts->tv_nsec = (long)ns;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
  int r = real_clock_gettime(id, ts);
  if (r == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE))
    shift(ts, current_offset_ms());
  return r;
}

// tv is never NULL (glibc declares it nonnull); tz is obsolete and left untouched.
int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  (void)tz;
  struct timespec ts;
  int r = clock_gettime(CLOCK_REALTIME, &ts);
  if (r == 0) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
  }
  return r;
}

time_t time(time_t *out) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
  if (out != NULL) *out = ts.tv_sec;
  return ts.tv_sec;
}
