// sd-bus (libsystemd's D-Bus library) through dlopen: see include/CNetStatusSDBus.h. The declarations below are
// sd-bus's public API as systemd's sd-bus.h declares it (stable since systemd 221; sd_bus_flush_close_unref since
// 229); they are written out so that building needs no libsystemd-dev.
#ifdef __linux__
#include "CNetStatusSDBus.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_slot sd_bus_slot;
typedef struct {
  const char *name;
  const char *message;
  int _need_free;
} sd_bus_error;
typedef int (*sd_bus_message_handler_t)(sd_bus_message *m, void *userdata, sd_bus_error *ret_error);

/// The sd-bus functions used, resolved once from libsystemd.so.0.
static struct {
  int (*bus_new)(sd_bus **ret);
  int (*bus_set_address)(sd_bus *bus, const char *address);
  int (*bus_set_bus_client)(sd_bus *bus, int b);
  int (*bus_start)(sd_bus *bus);
  int (*bus_open_system)(sd_bus **ret);
  int (*bus_add_match)(sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback,
                       void *userdata);
  int (*bus_get_fd)(sd_bus *bus);
  int (*bus_get_events)(sd_bus *bus);
  int (*bus_get_timeout)(sd_bus *bus, uint64_t *timeout_usec);
  int (*bus_process)(sd_bus *bus, sd_bus_message **ret);
  int (*bus_call)(sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply);
  sd_bus *(*bus_flush_close_unref)(sd_bus *bus);
  int (*message_new_method_call)(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path,
                                 const char *interface, const char *member);
  int (*message_append)(sd_bus_message *m, const char *types, ...);
  int (*message_set_auto_start)(sd_bus_message *m, int b);
  int (*message_enter_container)(sd_bus_message *m, char type, const char *contents);
  int (*message_read_basic)(sd_bus_message *m, char type, void *p);
  int (*message_read_strv)(sd_bus_message *m, char ***l);
  sd_bus_message *(*message_unref)(sd_bus_message *m);
  void (*error_free)(sd_bus_error *e);
} sd;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_failure[256];

static void load(void) {
  void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    snprintf(load_failure, sizeof load_failure, "%s", reason ? reason : "dlopen(libsystemd.so.0) failed");
    return;
  }
#define RESOLVE(field, symbol)                                                                  \
  do {                                                                                          \
    *(void **)(&sd.field) = dlsym(library, symbol);                                             \
    if (!sd.field) {                                                                            \
      snprintf(load_failure, sizeof load_failure, "libsystemd.so.0 has no %s (too old)", symbol); \
      return;                                                                                   \
    }                                                                                           \
  } while (0)
  RESOLVE(bus_new, "sd_bus_new");
  RESOLVE(bus_set_address, "sd_bus_set_address");
  RESOLVE(bus_set_bus_client, "sd_bus_set_bus_client");
  RESOLVE(bus_start, "sd_bus_start");
  RESOLVE(bus_open_system, "sd_bus_open_system");
  RESOLVE(bus_add_match, "sd_bus_add_match");
  RESOLVE(bus_get_fd, "sd_bus_get_fd");
  RESOLVE(bus_get_events, "sd_bus_get_events");
  RESOLVE(bus_get_timeout, "sd_bus_get_timeout");
  RESOLVE(bus_process, "sd_bus_process");
  RESOLVE(bus_call, "sd_bus_call");
  RESOLVE(bus_flush_close_unref, "sd_bus_flush_close_unref");
  RESOLVE(message_new_method_call, "sd_bus_message_new_method_call");
  RESOLVE(message_append, "sd_bus_message_append");
  RESOLVE(message_set_auto_start, "sd_bus_message_set_auto_start");
  RESOLVE(message_enter_container, "sd_bus_message_enter_container");
  RESOLVE(message_read_basic, "sd_bus_message_read_basic");
  RESOLVE(message_read_strv, "sd_bus_message_read_strv");
  RESOLVE(message_unref, "sd_bus_message_unref");
  RESOLVE(error_free, "sd_bus_error_free");
#undef RESOLVE
  // The library stays loaded for the life of the process: sd-bus keeps process-wide state.
}

int cns_sdbus_load(char *reason, size_t size) {
  pthread_once(&load_once, load);
  if (load_failure[0] == 0) return 0;
  if (size > 0) snprintf(reason, size, "%s", load_failure);
  return -1;
}

struct cns_bus {
  sd_bus *bus;
  uint64_t call_timeout_usec;
  uint64_t signals;
};

int cns_bus_open(const char *address, uint64_t call_timeout_usec, cns_bus **out) {
  char ignored[8];
  if (cns_sdbus_load(ignored, sizeof ignored) != 0) return -ENOSYS;
  sd_bus *bus = NULL;
  int result;
  if (address) {
    result = sd.bus_new(&bus);
    if (result < 0) return result;
    if ((result = sd.bus_set_address(bus, address)) < 0 || (result = sd.bus_set_bus_client(bus, 1)) < 0 ||
        (result = sd.bus_start(bus)) < 0) {
      sd.bus_flush_close_unref(bus);
      return result;
    }
  } else {
    result = sd.bus_open_system(&bus);
    if (result < 0) return result;
  }
  cns_bus *made = calloc(1, sizeof *made);
  if (!made) {
    sd.bus_flush_close_unref(bus);
    return -ENOMEM;
  }
  made->bus = bus;
  made->call_timeout_usec = call_timeout_usec;
  *out = made;
  return 0;
}

static int count_signal(sd_bus_message *message, void *userdata, sd_bus_error *error) {
  (void)message;
  (void)error;
  ((cns_bus *)userdata)->signals += 1;
  return 0;
}

int cns_bus_add_match(cns_bus *bus, const char *rule) {
  // A floating match (no slot kept): it lives as long as the connection.
  return sd.bus_add_match(bus->bus, NULL, rule, count_signal, bus);
}

int cns_bus_fd(cns_bus *bus) { return sd.bus_get_fd(bus->bus); }

int cns_bus_events(cns_bus *bus) {
  int events = sd.bus_get_events(bus->bus);
  return events < 0 ? POLLIN : events;
}

int cns_bus_timeout_ms(cns_bus *bus) {
  uint64_t until = 0;
  if (sd.bus_get_timeout(bus->bus, &until) < 0 || until == UINT64_MAX) return -1;
  // sd_bus_get_timeout gives an absolute CLOCK_MONOTONIC time in microseconds (0: now).
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  uint64_t current = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
  if (until <= current) return 0;
  uint64_t milliseconds = (until - current + 999) / 1000;
  return milliseconds > 60000 ? 60000 : (int)milliseconds;
}

int cns_bus_process(cns_bus *bus) { return sd.bus_process(bus->bus, NULL); }

uint64_t cns_bus_take_signals(cns_bus *bus) {
  uint64_t signals = bus->signals;
  bus->signals = 0;
  return signals;
}

/// Calls org.freedesktop.DBus.Properties.Get and enters the variant of the reply, which must hold `contents`.
static int get_property(cns_bus *bus, const char *destination, const char *path, const char *interface,
                        const char *property, const char *contents, sd_bus_message **reply, char *error_name,
                        size_t error_size) {
  if (error_size > 0) error_name[0] = 0;
  sd_bus_message *call = NULL;
  int result = sd.message_new_method_call(bus->bus, &call, destination, path, "org.freedesktop.DBus.Properties",
                                          "Get");
  if (result < 0) return result;
  if ((result = sd.message_append(call, "ss", interface, property)) < 0 ||
      (result = sd.message_set_auto_start(call, 0)) < 0) {
    sd.message_unref(call);
    return result;
  }
  sd_bus_error error = {NULL, NULL, 0};
  result = sd.bus_call(bus->bus, call, bus->call_timeout_usec, &error, reply);
  sd.message_unref(call);
  if (result < 0) {
    if (error.name && error_size > 0) snprintf(error_name, error_size, "%s", error.name);
    sd.error_free(&error);
    return result;
  }
  sd.error_free(&error);
  result = sd.message_enter_container(*reply, 'v', contents);
  if (result <= 0) {
    sd.message_unref(*reply);
    *reply = NULL;
    return result < 0 ? result : -ENXIO;
  }
  return 0;
}

int cns_bus_get_u32(cns_bus *bus, const char *destination, const char *path, const char *interface,
                    const char *property, uint32_t *value, char *error_name, size_t error_size) {
  sd_bus_message *reply = NULL;
  int result = get_property(bus, destination, path, interface, property, "u", &reply, error_name, error_size);
  if (result < 0) return result;
  result = sd.message_read_basic(reply, 'u', value);
  sd.message_unref(reply);
  return result < 0 ? result : (result == 0 ? -ENXIO : 0);
}

int cns_bus_get_string(cns_bus *bus, const char *destination, const char *path, const char *interface,
                       const char *property, char **value, char *error_name, size_t error_size) {
  sd_bus_message *reply = NULL;
  int result = get_property(bus, destination, path, interface, property, "s", &reply, error_name, error_size);
  if (result < 0) return result;
  const char *text = NULL;
  result = sd.message_read_basic(reply, 's', &text);
  if (result > 0) {
    *value = strdup(text);
    result = *value ? 0 : -ENOMEM;
  } else if (result == 0) {
    result = -ENXIO;
  }
  sd.message_unref(reply);
  return result;
}

int cns_bus_get_strv(cns_bus *bus, const char *destination, const char *path, const char *interface,
                     const char *property, char ***value, char *error_name, size_t error_size) {
  sd_bus_message *reply = NULL;
  // NULL contents: the variant may hold `ao` (object paths) or `as`; sd_bus_message_read_strv reads both.
  int result = get_property(bus, destination, path, interface, property, NULL, &reply, error_name, error_size);
  if (result < 0) return result;
  *value = NULL;
  result = sd.message_read_strv(reply, value);
  sd.message_unref(reply);
  if (result < 0) return result;
  if (!*value) *value = calloc(1, sizeof(char *));
  return *value ? 0 : -ENOMEM;
}

void cns_strv_free(char **strv) {
  if (!strv) return;
  for (char **item = strv; *item; item++) free(*item);
  free(strv);
}

void cns_bus_close(cns_bus *bus) {
  if (!bus) return;
  sd.bus_flush_close_unref(bus->bus);
  free(bus);
}
#endif
