// sd-bus (libsystemd's D-Bus library) through dlopen: see include/CNetStatusSDBus.h. The declarations below are
// sd-bus's public API as systemd's sd-bus.h declares it (stable since systemd 221; sd_bus_add_match_async since
// 237); they are written out so that building needs no libsystemd-dev.
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
  int (*bus_add_match_async)(sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback,
                             sd_bus_message_handler_t install_callback, void *userdata);
  int (*bus_call_async)(sd_bus *bus, sd_bus_slot **slot, sd_bus_message *m, sd_bus_message_handler_t callback,
                        void *userdata, uint64_t usec);
  int (*bus_get_fd)(sd_bus *bus);
  int (*bus_get_events)(sd_bus *bus);
  int (*bus_get_timeout)(sd_bus *bus, uint64_t *timeout_usec);
  int (*bus_process)(sd_bus *bus, sd_bus_message **ret);
  void (*bus_close)(sd_bus *bus);
  sd_bus *(*bus_unref)(sd_bus *bus);
  int (*message_new_method_call)(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path,
                                 const char *interface, const char *member);
  int (*message_append)(sd_bus_message *m, const char *types, ...);
  int (*message_set_auto_start)(sd_bus_message *m, int b);
  int (*message_enter_container)(sd_bus_message *m, char type, const char *contents);
  int (*message_exit_container)(sd_bus_message *m);
  int (*message_peek_type)(sd_bus_message *m, char *type, const char **contents);
  int (*message_skip)(sd_bus_message *m, const char *types);
  int (*message_read_basic)(sd_bus_message *m, char type, void *p);
  int (*message_read_strv)(sd_bus_message *m, char ***l);
  int (*message_is_method_error)(sd_bus_message *m, const char *name);
  const sd_bus_error *(*message_get_error)(sd_bus_message *m);
  int (*message_get_errno)(sd_bus_message *m);
  const char *(*message_get_path)(sd_bus_message *m);
  const char *(*message_get_interface)(sd_bus_message *m);
  const char *(*message_get_member)(sd_bus_message *m);
  const char *(*message_get_sender)(sd_bus_message *m);
  sd_bus_message *(*message_unref)(sd_bus_message *m);
  int (*bus_add_object)(sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback,
                        void *userdata);
  int (*message_new_method_return)(sd_bus_message *call, sd_bus_message **m);
  int (*bus_send)(sd_bus *bus, sd_bus_message *m, uint64_t *cookie);
  const char *(*message_get_signature)(sd_bus_message *m, int complete);
  int (*message_append_basic)(sd_bus_message *m, char type, const void *p);
  int (*message_append_array)(sd_bus_message *m, char type, const void *ptr, size_t size);
  int (*message_is_method_call)(sd_bus_message *m, const char *interface, const char *member);
  int (*message_get_expect_reply)(sd_bus_message *m);
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
  RESOLVE(bus_add_match_async, "sd_bus_add_match_async");
  RESOLVE(bus_call_async, "sd_bus_call_async");
  RESOLVE(bus_get_fd, "sd_bus_get_fd");
  RESOLVE(bus_get_events, "sd_bus_get_events");
  RESOLVE(bus_get_timeout, "sd_bus_get_timeout");
  RESOLVE(bus_process, "sd_bus_process");
  RESOLVE(bus_close, "sd_bus_close");
  RESOLVE(bus_unref, "sd_bus_unref");
  RESOLVE(message_new_method_call, "sd_bus_message_new_method_call");
  RESOLVE(message_append, "sd_bus_message_append");
  RESOLVE(message_set_auto_start, "sd_bus_message_set_auto_start");
  RESOLVE(message_enter_container, "sd_bus_message_enter_container");
  RESOLVE(message_exit_container, "sd_bus_message_exit_container");
  RESOLVE(message_peek_type, "sd_bus_message_peek_type");
  RESOLVE(message_skip, "sd_bus_message_skip");
  RESOLVE(message_read_basic, "sd_bus_message_read_basic");
  RESOLVE(message_read_strv, "sd_bus_message_read_strv");
  RESOLVE(message_is_method_error, "sd_bus_message_is_method_error");
  RESOLVE(message_get_error, "sd_bus_message_get_error");
  RESOLVE(message_get_errno, "sd_bus_message_get_errno");
  RESOLVE(message_get_path, "sd_bus_message_get_path");
  RESOLVE(message_get_interface, "sd_bus_message_get_interface");
  RESOLVE(message_get_member, "sd_bus_message_get_member");
  RESOLVE(message_get_sender, "sd_bus_message_get_sender");
  RESOLVE(message_unref, "sd_bus_message_unref");
  RESOLVE(bus_add_object, "sd_bus_add_object");
  RESOLVE(message_new_method_return, "sd_bus_message_new_method_return");
  RESOLVE(bus_send, "sd_bus_send");
  RESOLVE(message_get_signature, "sd_bus_message_get_signature");
  RESOLVE(message_append_basic, "sd_bus_message_append_basic");
  RESOLVE(message_append_array, "sd_bus_message_append_array");
  RESOLVE(message_is_method_call, "sd_bus_message_is_method_call");
  RESOLVE(message_get_expect_reply, "sd_bus_message_get_expect_reply");
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
  /// Events not taken yet, oldest first.
  cns_bus_event *head;
  cns_bus_event *tail;
};

int cns_bus_open(const char *address, cns_bus **out) {
  char ignored[8];
  if (cns_sdbus_load(ignored, sizeof ignored) != 0) return -ENOSYS;
  sd_bus *bus = NULL;
  int result;
  // Neither way waits for the bus: the socket is connected without blocking, and the authentication and Hello
  // go on in cns_bus_process.
  if (address) {
    result = sd.bus_new(&bus);
    if (result < 0) return result;
    if ((result = sd.bus_set_address(bus, address)) < 0 || (result = sd.bus_set_bus_client(bus, 1)) < 0 ||
        (result = sd.bus_start(bus)) < 0) {
      sd.bus_unref(bus);
      return result;
    }
  } else {
    result = sd.bus_open_system(&bus);
    if (result < 0) return result;
  }
  cns_bus *made = calloc(1, sizeof *made);
  if (!made) {
    sd.bus_close(bus);
    sd.bus_unref(bus);
    return -ENOMEM;
  }
  made->bus = bus;
  *out = made;
  return 0;
}

/// The connection whose cns_bus_process runs on this thread: sd-bus calls the handlers below only from
/// sd_bus_process, and the calls' userdata is their token, so the handlers find the queue here.
static __thread cns_bus *processing;

static cns_bus_event *new_event(int kind) {
  cns_bus_event *event = calloc(1, sizeof *event);
  if (event) event->kind = kind;
  return event;
}

static void enqueue(cns_bus_event *event) {
  cns_bus *bus = processing;
  if (!event) return;
  if (!bus) {
    cns_bus_event_free(event);
    return;
  }
  if (bus->tail) {
    bus->tail->next = event;
  } else {
    bus->head = event;
  }
  bus->tail = event;
}

static char *copy(const char *text) { return text ? strdup(text) : NULL; }

/// Reads an `a(su)` (the message is in the variant) into `event`'s `strv` and `u32v`.
static int read_named_numbers(sd_bus_message *message, cns_bus_event *event) {
  int result = sd.message_enter_container(message, 'a', "(su)");
  if (result <= 0) return result < 0 ? result : -EBADMSG;
  size_t count = 0, capacity = 4;
  event->strv = calloc(capacity + 1, sizeof(char *));
  event->u32v = calloc(capacity, sizeof(uint32_t));
  if (!event->strv || !event->u32v) return -ENOMEM;
  while ((result = sd.message_enter_container(message, 'r', "su")) > 0) {
    const char *name = NULL;
    uint32_t number = 0;
    if ((result = sd.message_read_basic(message, 's', &name)) <= 0 ||
        (result = sd.message_read_basic(message, 'u', &number)) <= 0)
      return result < 0 ? result : -EBADMSG;
    if (count == capacity) {
      capacity *= 2;
      char **names = realloc(event->strv, (capacity + 1) * sizeof(char *));
      if (!names) return -ENOMEM;
      event->strv = names;
      uint32_t *numbers = realloc(event->u32v, capacity * sizeof(uint32_t));
      if (!numbers) return -ENOMEM;
      event->u32v = numbers;
    }
    event->strv[count] = strdup(name ? name : "");
    event->u32v[count] = number;
    event->strv[++count] = NULL;
    if ((result = sd.message_exit_container(message)) < 0) return result;
  }
  if (result < 0) return result;
  return sd.message_exit_container(message);
}

/// Reads a variant into `event`: a `u`, a `y`, an `s` or `o`, an `as` or `ao`, a `(ub)`, an `a(su)`; any other type
/// is skipped and its signature kept (CNS_VALUE_OTHER), so that the caller can say it was unexpected.
static int read_variant(sd_bus_message *message, cns_bus_event *event) {
  char type = 0;
  const char *contents = NULL;
  int result = sd.message_peek_type(message, &type, &contents);
  if (result <= 0) return result < 0 ? result : -EBADMSG;
  if (type != 'v' || !contents) return -EBADMSG;
  int kind = strcmp(contents, "u") == 0                                    ? CNS_VALUE_U32
             : strcmp(contents, "y") == 0                                  ? CNS_VALUE_BYTE
             : strcmp(contents, "s") == 0 || strcmp(contents, "o") == 0    ? CNS_VALUE_STRING
             : strcmp(contents, "as") == 0 || strcmp(contents, "ao") == 0  ? CNS_VALUE_STRV
             : strcmp(contents, "(ub)") == 0                               ? CNS_VALUE_U32_BOOL
             : strcmp(contents, "a(su)") == 0                              ? CNS_VALUE_NAMED_U32S
                                                                            : CNS_VALUE_OTHER;
  if (kind == CNS_VALUE_OTHER) {
    event->value_kind = CNS_VALUE_OTHER;
    event->string = strdup(contents);
    return sd.message_skip(message, "v");
  }
  char inner[6] = {0};
  snprintf(inner, sizeof inner, "%s", contents);
  if ((result = sd.message_enter_container(message, 'v', inner)) <= 0) return result < 0 ? result : -EBADMSG;
  if (kind == CNS_VALUE_U32) {
    result = sd.message_read_basic(message, 'u', &event->u32);
  } else if (kind == CNS_VALUE_BYTE) {
    uint8_t byte = 0;
    result = sd.message_read_basic(message, 'y', &byte);
    event->u32 = byte;
  } else if (kind == CNS_VALUE_STRING) {
    const char *text = NULL;
    result = sd.message_read_basic(message, inner[0], &text);
    if (result > 0) event->string = strdup(text ? text : "");
  } else if (kind == CNS_VALUE_U32_BOOL) {
    int flag = 0;
    if ((result = sd.message_enter_container(message, 'r', "ub")) > 0 &&
        (result = sd.message_read_basic(message, 'u', &event->u32)) > 0 &&
        (result = sd.message_read_basic(message, 'b', &flag)) > 0)
      result = sd.message_exit_container(message);
    event->flag = flag != 0;
  } else if (kind == CNS_VALUE_NAMED_U32S) {
    result = read_named_numbers(message, event);
  } else {
    result = sd.message_read_strv(message, &event->strv);
    if (result >= 0 && !event->strv) event->strv = calloc(1, sizeof(char *));
  }
  if (result < 0) return result;
  event->value_kind = kind;
  return sd.message_exit_container(message);
}

static int on_reply(sd_bus_message *message, void *userdata, sd_bus_error *error) {
  (void)error;
  cns_bus_event *event = new_event(CNS_EVENT_REPLY);
  if (!event) return 0;
  event->token = (uint64_t)(uintptr_t)userdata;
  event->sender = copy(sd.message_get_sender(message));
  if (sd.message_is_method_error(message, NULL)) {
    const sd_bus_error *failure = sd.message_get_error(message);
    int code = sd.message_get_errno(message);
    event->code = -(code > 0 ? code : EIO);
    event->error_name = copy(failure ? failure->name : NULL);
  } else {
    char type = 0;
    const char *contents = NULL;
    // An empty return (a method call's) has no value; a property's Get has one variant.
    if (sd.message_peek_type(message, &type, &contents) != 0) {
      int result = read_variant(message, event);
      if (result < 0) event->code = result;
    }
  }
  enqueue(event);
  return 0;
}

static int on_match_installed(sd_bus_message *message, void *userdata, sd_bus_error *error) {
  (void)userdata;
  (void)error;
  // Without this handler sd-bus would close the connection when a match fails.
  cns_bus_event *event = new_event(CNS_EVENT_MATCH_INSTALLED);
  if (!event) return 0;
  if (sd.message_is_method_error(message, NULL)) {
    const sd_bus_error *failure = sd.message_get_error(message);
    int code = sd.message_get_errno(message);
    event->code = -(code > 0 ? code : EIO);
    event->error_name = copy(failure ? failure->name : NULL);
  }
  enqueue(event);
  return 0;
}

/// An a{sv} of properties: one CNS_EVENT_PROPERTY each, with `token` (0 for a signal).
static int read_changed(sd_bus_message *message, const char *path, const char *interface, uint64_t token) {
  int result = sd.message_enter_container(message, 'a', "{sv}");
  if (result <= 0) return result;
  while ((result = sd.message_enter_container(message, 'e', "sv")) > 0) {
    const char *name = NULL;
    if ((result = sd.message_read_basic(message, 's', &name)) <= 0) return result < 0 ? result : -EBADMSG;
    cns_bus_event *event = new_event(CNS_EVENT_PROPERTY);
    if (!event) return -ENOMEM;
    event->path = copy(path);
    event->interface = copy(interface);
    event->name = copy(name);
    event->token = token;
    if ((result = read_variant(message, event)) < 0) {
      cns_bus_event_free(event);
      return result;
    }
    enqueue(event);
    if ((result = sd.message_exit_container(message)) < 0) return result;
  }
  if (result < 0) return result;
  return sd.message_exit_container(message);
}

/// An `o a{sa{sv}}` (an object and its interfaces with their properties, as InterfacesAdded and each entry of
/// GetManagedObjects carry it): a CNS_EVENT_OBJECT with the interfaces' names, then the properties, all with
/// `token`. Nothing is queued unless all of it decodes.
static int read_object(sd_bus_message *message, uint64_t token) {
  const char *object = NULL;
  int result = sd.message_read_basic(message, 'o', &object);
  if (result <= 0) return result < 0 ? result : -EBADMSG;
  cns_bus_event *event = new_event(CNS_EVENT_OBJECT);
  if (!event) return -ENOMEM;
  event->token = token;
  event->path = copy(object);
  event->strv = calloc(1, sizeof(char *));
  // The properties are kept aside until the object's event is queued before them.
  cns_bus *bus = processing;
  cns_bus_event *outer_head = bus ? bus->head : NULL, *outer_tail = bus ? bus->tail : NULL;
  if (bus) bus->head = bus->tail = NULL;
  size_t count = 0;
  if (!event->strv) {
    result = -ENOMEM;
  } else if ((result = sd.message_enter_container(message, 'a', "{sa{sv}}")) > 0) {
    while ((result = sd.message_enter_container(message, 'e', "sa{sv}")) > 0) {
      const char *interface = NULL;
      if ((result = sd.message_read_basic(message, 's', &interface)) <= 0) {
        if (result == 0) result = -EBADMSG;
        break;
      }
      char **names = realloc(event->strv, (count + 2) * sizeof(char *));
      if (!names) {
        result = -ENOMEM;
        break;
      }
      event->strv = names;
      event->strv[count++] = strdup(interface ? interface : "");
      event->strv[count] = NULL;
      if ((result = read_changed(message, object, interface, token)) < 0 ||
          (result = sd.message_exit_container(message)) < 0)
        break;
    }
    if (result >= 0) result = sd.message_exit_container(message);
  } else if (result == 0) {
    result = -EBADMSG;
  }
  cns_bus_event *properties = bus ? bus->head : NULL;
  cns_bus_event *properties_tail = bus ? bus->tail : NULL;
  if (bus) {
    bus->head = outer_head;
    bus->tail = outer_tail;
  }
  if (result < 0) {
    cns_bus_event_free(event);
    while (properties) {
      cns_bus_event *next = properties->next;
      cns_bus_event_free(properties);
      properties = next;
    }
    return result;
  }
  enqueue(event);
  if (properties && bus) {
    bus->tail->next = properties;
    bus->tail = properties_tail;
  }
  return 0;
}

static int on_managed_objects(sd_bus_message *message, void *userdata, sd_bus_error *error) {
  (void)error;
  uint64_t token = (uint64_t)(uintptr_t)userdata;
  cns_bus_event *end = new_event(CNS_EVENT_LISTED);
  if (!end) return 0;
  end->token = token;
  if (sd.message_is_method_error(message, NULL)) {
    const sd_bus_error *failure = sd.message_get_error(message);
    int code = sd.message_get_errno(message);
    end->code = -(code > 0 ? code : EIO);
    end->error_name = copy(failure ? failure->name : NULL);
  } else {
    const char *signature = sd.message_get_signature(message, 1);
    if (!signature || strcmp(signature, "a{oa{sa{sv}}}") != 0) {
      end->code = -EBADMSG;
      end->string = copy(signature ? signature : "");
    } else {
      int result = sd.message_enter_container(message, 'a', "{oa{sa{sv}}}");
      while (result > 0 && (result = sd.message_enter_container(message, 'e', "oa{sa{sv}}")) > 0) {
        if ((result = read_object(message, token)) < 0) break;
        result = sd.message_exit_container(message);
      }
      if (result < 0) end->code = result;
    }
  }
  enqueue(end);
  return 0;
}

/// A method call to an exported object: answered at once with an empty return when the caller expects an answer
/// (iwd calls its agents with NO_REPLY_EXPECTED: the bus would reject an answer to such a call; sd-bus also drops
/// a reply to one when sending it, but this does not rely on that), and queued as an event. Calls of the bus's
/// standard interfaces (Introspect, Properties, Peer) are left to sd-bus.
static int on_method_call(sd_bus_message *message, void *userdata, sd_bus_error *error) {
  (void)userdata;
  (void)error;
  const char *interface = sd.message_get_interface(message);
  if (!sd.message_is_method_call(message, NULL, NULL) ||
      (interface && strncmp(interface, "org.freedesktop.DBus.", 21) == 0))
    return 0;
  cns_bus_event *event = new_event(CNS_EVENT_METHOD_CALL);
  if (event) {
    event->path = copy(sd.message_get_path(message));
    event->interface = copy(interface);
    event->name = copy(sd.message_get_member(message));
    event->sender = copy(sd.message_get_sender(message));
    char type = 0;
    const char *contents = NULL;
    const char *object = NULL;
    if (sd.message_peek_type(message, &type, &contents) > 0 && type == 'o' &&
        sd.message_read_basic(message, 'o', &object) > 0) {
      event->string = copy(object);
      uint8_t byte = 0;
      if (sd.message_peek_type(message, &type, &contents) > 0 && type == 'y' &&
          sd.message_read_basic(message, 'y', &byte) > 0) {
        event->u32 = byte;
        event->value_kind = CNS_VALUE_BYTE;
      }
    }
    enqueue(event);
  }
  sd_bus_message *reply = NULL;
  cns_bus *bus = processing;
  if (bus && sd.message_get_expect_reply(message) > 0 && sd.message_new_method_return(message, &reply) >= 0) {
    sd.bus_send(bus->bus, reply, NULL);
    sd.message_unref(reply);
  }
  return 1;
}

static int on_signal(sd_bus_message *message, void *userdata, sd_bus_error *error) {
  (void)userdata;
  (void)error;
  const char *member = sd.message_get_member(message);
  const char *path = sd.message_get_path(message);
  const char *interface = sd.message_get_interface(message);
  if (!member || !path) return 0;
  if (strcmp(member, "NameOwnerChanged") == 0) {
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (sd.message_read_basic(message, 's', &name) <= 0 || sd.message_read_basic(message, 's', &old_owner) <= 0 ||
        sd.message_read_basic(message, 's', &new_owner) <= 0)
      return 0;
    cns_bus_event *event = new_event(CNS_EVENT_OWNER);
    if (event) {
      event->name = copy(new_owner);
      event->string = copy(name);
    }
    enqueue(event);
  } else if (strcmp(member, "DeviceAdded") == 0 || strcmp(member, "DeviceRemoved") == 0) {
    const char *device = NULL;
    if (sd.message_read_basic(message, 'o', &device) <= 0) return 0;
    cns_bus_event *event = new_event(member[6] == 'A' ? CNS_EVENT_DEVICE_ADDED : CNS_EVENT_DEVICE_REMOVED);
    if (event) event->path = copy(device);
    enqueue(event);
  } else if (strcmp(member, "InterfacesAdded") == 0) {
    read_object(message, 0);
  } else if (strcmp(member, "InterfacesRemoved") == 0) {
    // (o as): the object and the interfaces it lost.
    const char *object = NULL;
    char **interfaces = NULL;
    if (sd.message_read_basic(message, 'o', &object) <= 0 || sd.message_read_strv(message, &interfaces) < 0) return 0;
    cns_bus_event *event = new_event(CNS_EVENT_OBJECT_REMOVED);
    if (!event) {
      cns_strv_free(interfaces);
      return 0;
    }
    event->path = copy(object);
    event->strv = interfaces ? interfaces : calloc(1, sizeof(char *));
    enqueue(event);
  } else if (strcmp(member, "PropertiesChanged") == 0 && interface) {
    if (strcmp(interface, "org.freedesktop.DBus.Properties") == 0) {
      // (s a{sv} as): the interface, the new values, the properties changed without their value.
      const char *changed = NULL;
      if (sd.message_read_basic(message, 's', &changed) <= 0 || read_changed(message, path, changed, 0) < 0) return 0;
      char **invalidated = NULL;
      if (sd.message_read_strv(message, &invalidated) < 0) return 0;
      for (char **name = invalidated; name && *name; name++) {
        cns_bus_event *event = new_event(CNS_EVENT_INVALIDATED);
        if (event) {
          event->path = copy(path);
          event->interface = copy(changed);
          event->name = copy(*name);
        }
        enqueue(event);
      }
      cns_strv_free(invalidated);
    } else {
      // NetworkManager's own older signal of the same name, on the interface itself: a{sv}.
      read_changed(message, path, interface, 0);
    }
  }
  return 0;
}

int cns_bus_add_match(cns_bus *bus, const char *rule) {
  // A floating match (no slot kept): it lives as long as the connection. Asynchronous: the AddMatch call's answer
  // comes through cns_bus_process (CNS_EVENT_MATCH_INSTALLED).
  return sd.bus_add_match_async(bus->bus, NULL, rule, on_signal, on_match_installed, NULL);
}

int cns_bus_get(cns_bus *bus, const char *destination, const char *path, const char *interface,
                const char *property, uint64_t token, uint64_t timeout_usec) {
  sd_bus_message *call = NULL;
  int result = sd.message_new_method_call(bus->bus, &call, destination, path, "org.freedesktop.DBus.Properties",
                                          "Get");
  if (result < 0) return result;
  if ((result = sd.message_append(call, "ss", interface, property)) >= 0 &&
      (result = sd.message_set_auto_start(call, 0)) >= 0) {
    // A floating slot: the answer, an error, or sd-bus's own timeout error comes through cns_bus_process.
    result = sd.bus_call_async(bus->bus, NULL, call, on_reply, (void *)(uintptr_t)token, timeout_usec);
  }
  sd.message_unref(call);
  return result < 0 ? result : 0;
}

int cns_bus_get_managed_objects(cns_bus *bus, const char *destination, const char *path, uint64_t token,
                                uint64_t timeout_usec) {
  sd_bus_message *call = NULL;
  int result = sd.message_new_method_call(bus->bus, &call, destination, path, "org.freedesktop.DBus.ObjectManager",
                                          "GetManagedObjects");
  if (result < 0) return result;
  if ((result = sd.message_set_auto_start(call, 0)) >= 0)
    result = sd.bus_call_async(bus->bus, NULL, call, on_managed_objects, (void *)(uintptr_t)token, timeout_usec);
  sd.message_unref(call);
  return result < 0 ? result : 0;
}

int cns_bus_call_object_int16s(cns_bus *bus, const char *destination, const char *path, const char *interface,
                               const char *method, const char *object, const int16_t *numbers, size_t count,
                               uint64_t token, uint64_t timeout_usec) {
  sd_bus_message *call = NULL;
  int result = sd.message_new_method_call(bus->bus, &call, destination, path, interface, method);
  if (result < 0) return result;
  if ((result = sd.message_append_basic(call, 'o', object)) >= 0 &&
      (result = sd.message_append_array(call, 'n', numbers, count * sizeof(int16_t))) >= 0 &&
      (result = sd.message_set_auto_start(call, 0)) >= 0)
    result = sd.bus_call_async(bus->bus, NULL, call, on_reply, (void *)(uintptr_t)token, timeout_usec);
  sd.message_unref(call);
  return result < 0 ? result : 0;
}

int cns_bus_export(cns_bus *bus, const char *path) {
  // A floating slot: the object lives as long as the connection.
  return sd.bus_add_object(bus->bus, NULL, path, on_method_call, NULL);
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

int cns_bus_process(cns_bus *bus) {
  processing = bus;
  int result = sd.bus_process(bus->bus, NULL);
  processing = NULL;
  return result;
}

cns_bus_event *cns_bus_next_event(cns_bus *bus) {
  cns_bus_event *event = bus->head;
  if (!event) return NULL;
  bus->head = event->next;
  if (!bus->head) bus->tail = NULL;
  event->next = NULL;
  return event;
}

void cns_bus_event_free(cns_bus_event *event) {
  if (!event) return;
  free(event->error_name);
  free(event->path);
  free(event->interface);
  free(event->name);
  free(event->string);
  cns_strv_free(event->strv);
  free(event->u32v);
  free(event->sender);
  free(event);
}

void cns_strv_free(char **strv) {
  if (!strv) return;
  for (char **item = strv; *item; item++) free(*item);
  free(strv);
}

void cns_bus_close(cns_bus *bus) {
  if (!bus) return;
  // Closed without flushing (sd_bus_flush_close_unref would wait for a bus that does not answer: up to sd-bus's
  // 90 s authentication timeout): nothing sent here needs to arrive once the connection is given up.
  sd.bus_close(bus->bus);
  sd.bus_unref(bus->bus);
  cns_bus_event *event;
  while ((event = cns_bus_next_event(bus))) cns_bus_event_free(event);
  free(bus);
}
#endif
