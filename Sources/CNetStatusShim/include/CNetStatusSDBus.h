#ifndef CNETSTATUS_SDBUS_H
#define CNETSTATUS_SDBUS_H

#ifdef __linux__
#include <stddef.h>
#include <stdint.h>

// A D-Bus connection through sd-bus, libsystemd's D-Bus library, loaded at run time (dlopen of libsystemd.so.0):
// netstatus has no link-time dependency on libsystemd and works where it is missing. The few sd-bus types and
// functions used are declared in sdbus.c (no libsystemd-dev needed to build); Swift sees only these fixed-argument
// calls, since it cannot call sd-bus's variadic functions. Nothing here blocks: calls are sent and their answers
// (and signals) come back as events from cns_bus_process. One connection is used by one thread at a time.

/// An open bus connection (opaque).
typedef struct cns_bus cns_bus;

/// What a value read from the bus holds (cns_bus_event's `value_kind`).
enum {
  /// No value: an error, or an event that carries none.
  CNS_VALUE_NONE = 0,
  /// `u`: in `u32`.
  CNS_VALUE_U32 = 1,
  /// `s` or `o`: in `string`.
  CNS_VALUE_STRING = 2,
  /// `as` or `ao`: in `strv`.
  CNS_VALUE_STRV = 3,
  /// Another type, whose signature is in `string`.
  CNS_VALUE_OTHER = 4,
  /// `y`: in `u32` (0 to 255).
  CNS_VALUE_BYTE = 5,
  /// `(ub)`: the number in `u32`, the boolean in `flag`.
  CNS_VALUE_U32_BOOL = 6,
  /// `a(su)`: the strings in `strv`, the numbers in `u32v` (as many, in the same order).
  CNS_VALUE_NAMED_U32S = 7,
};

/// What happened (cns_bus_event's `kind`).
enum {
  /// The answer to cns_bus_get's (or cns_bus_call_object_int16s's) call `token`: `code` 0 and the value (none for
  /// an empty return), or a negative errno in `code` and the D-Bus error's name in `error_name` (sd-bus's own
  /// timeout is `org.freedesktop.DBus.Error.NoReply`, ETIMEDOUT).
  CNS_EVENT_REPLY = 1,
  /// The bus answered an AddMatch: `code` 0, or a negative errno and `error_name` when it refused it.
  CNS_EVENT_MATCH_INSTALLED = 2,
  /// A PropertiesChanged signal gave property `name` of `interface` at `path` this value.
  CNS_EVENT_PROPERTY = 3,
  /// A PropertiesChanged signal said property `name` of `interface` at `path` changed, without its value.
  CNS_EVENT_INVALIDATED = 4,
  /// NetworkManager's DeviceAdded, DeviceRemoved: the device's object `path`.
  CNS_EVENT_DEVICE_ADDED = 5,
  CNS_EVENT_DEVICE_REMOVED = 6,
  /// NameOwnerChanged of a watched name (in `string`): its new owner in `name`, empty when it left the bus.
  CNS_EVENT_OWNER = 7,
  /// An object with the interfaces in `strv` at `path`: one of cns_bus_get_managed_objects's answer (`token` set),
  /// or an InterfacesAdded signal (`token` 0). Its properties follow as CNS_EVENT_PROPERTY events with the same
  /// `token`.
  CNS_EVENT_OBJECT = 8,
  /// An InterfacesRemoved signal: the object at `path` lost the interfaces in `strv`.
  CNS_EVENT_OBJECT_REMOVED = 9,
  /// The end of cns_bus_get_managed_objects's answer `token`, after its objects: `code` 0, or a negative errno and
  /// the D-Bus error's name in `error_name`; an answer of another type than `a{oa{sa{sv}}}` has -EBADMSG and its
  /// signature in `string`.
  CNS_EVENT_LISTED = 10,
  /// A method call to an object exported with cns_bus_export: `path` (the object), `interface`, `name` (the
  /// method), the first argument when it is an `o` (in `string`) and the second when it is a `y` (in `u32`,
  /// `value_kind` CNS_VALUE_BYTE). The call was answered with an empty return already, unless its caller expects
  /// no answer (NO_REPLY_EXPECTED).
  CNS_EVENT_METHOD_CALL = 11,
};

/// One thing the connection received, taken with cns_bus_next_event and freed with cns_bus_event_free. The strings
/// are allocated, or NULL.
typedef struct cns_bus_event {
  int kind;
  uint64_t token;
  int code;
  char *error_name;
  char *path;
  char *interface;
  char *name;
  int value_kind;
  uint32_t u32;
  char *string;
  char **strv;
  uint32_t flag;
  uint32_t *u32v;
  /// The unique name of the connection that sent the message: set for CNS_EVENT_REPLY and
  /// CNS_EVENT_METHOD_CALL.
  char *sender;
  struct cns_bus_event *next;
} cns_bus_event;

/// Loads libsystemd.so.0 and its sd-bus functions, once per process. Returns 0, or -1 with the reason (dlerror's
/// text, or the missing function's name) in `reason` (always NUL-terminated).
int cns_sdbus_load(char *reason, size_t size);

/// Opens a connection without waiting for the bus (the authentication goes on in cns_bus_process): to the system
/// bus when `address` is NULL (sd_bus_open_system, which honours DBUS_SYSTEM_BUS_ADDRESS), else to the bus at
/// `address` (a D-Bus address such as `unix:path=/run/x`). Returns 0 with `*out` set, or a negative errno.
int cns_bus_open(const char *address, cns_bus **out);

/// Subscribes to signals matching `rule` (sd_bus_add_match_async, a rule such as `type='signal',sender='…'`):
/// NameOwnerChanged, PropertiesChanged, DeviceAdded and DeviceRemoved become events. Returns at once: 0 or a
/// negative errno; the bus's answer is a CNS_EVENT_MATCH_INSTALLED.
int cns_bus_add_match(cns_bus *bus, const char *rule);

/// Sends org.freedesktop.DBus.Properties.Get (sd_bus_call_async, never D-Bus activating `destination`) and returns
/// at once: 0 or a negative errno. Its answer is a CNS_EVENT_REPLY with `token`, or sd-bus's timeout error after
/// `timeout_usec` once the connection runs (the caller bounds the time before that itself).
int cns_bus_get(cns_bus *bus, const char *destination, const char *path, const char *interface,
                const char *property, uint64_t token, uint64_t timeout_usec);

/// Calls org.freedesktop.DBus.ObjectManager.GetManagedObjects on `path` at `destination` (never D-Bus
/// activating it) and returns at once: 0 or a negative errno. Its answer comes as one CNS_EVENT_OBJECT per object,
/// each followed by its properties' CNS_EVENT_PROPERTY events, then a CNS_EVENT_LISTED, all with `token`.
int cns_bus_get_managed_objects(cns_bus *bus, const char *destination, const char *path, uint64_t token,
                                uint64_t timeout_usec);

/// Calls `interface`.`method`(o `object`, an `numbers`) on `path` at `destination` (never D-Bus activating it) and
/// returns at once: 0 or a negative errno. Its answer is a CNS_EVENT_REPLY with `token` (no value when it succeeds).
int cns_bus_call_object_int16s(cns_bus *bus, const char *destination, const char *path, const char *interface,
                               const char *method, const char *object, const int16_t *numbers, size_t count,
                               uint64_t token, uint64_t timeout_usec);

/// Exports an object at `path`: each method call to it is answered at once with an empty return (none for a call
/// sent with NO_REPLY_EXPECTED) and becomes a CNS_EVENT_METHOD_CALL. Returns 0 or a negative errno. It lives as
/// long as the connection.
int cns_bus_export(cns_bus *bus, const char *path);

/// The connection's descriptor, the poll(2) events to wait for on it now (sd_bus_get_events) and how long to
/// wait at most, in milliseconds, or -1 for no limit (sd_bus_get_timeout, relative to now).
int cns_bus_fd(cns_bus *bus);
int cns_bus_events(cns_bus *bus);
int cns_bus_timeout_ms(cns_bus *bus);

/// Handles one pending message (sd_bus_process), which may queue events: 1 if there may be more, 0 if there is
/// none, a negative errno when the connection is lost.
int cns_bus_process(cns_bus *bus);

/// The oldest event not taken yet, or NULL.
cns_bus_event *cns_bus_next_event(cns_bus *bus);

/// Frees an event.
void cns_bus_event_free(cns_bus_event *event);

/// Frees a NULL-terminated array of allocated strings.
void cns_strv_free(char **strv);

/// Closes the connection without waiting for anything and frees it with the events not taken.
void cns_bus_close(cns_bus *bus);
#endif

#endif
