#ifndef CNETSTATUS_SDBUS_H
#define CNETSTATUS_SDBUS_H

#ifdef __linux__
#include <stddef.h>
#include <stdint.h>

// A D-Bus connection through sd-bus, libsystemd's D-Bus library, loaded at run time (dlopen of libsystemd.so.0):
// netstatus has no link-time dependency on libsystemd and works where it is missing. The few sd-bus types and
// functions used are declared in sdbus.c (no libsystemd-dev needed to build); Swift sees only these fixed-argument
// calls, since it cannot call sd-bus's variadic functions. One connection is used by one thread at a time.

/// An open bus connection (opaque).
typedef struct cns_bus cns_bus;

/// Loads libsystemd.so.0 and its sd-bus functions, once per process. Returns 0, or -1 with the reason (dlerror's
/// text, or the missing function's name) in `reason` (always NUL-terminated).
int cns_sdbus_load(char *reason, size_t size);

/// Opens a connection: to the system bus when `address` is NULL (sd_bus_open_system, which honours
/// DBUS_SYSTEM_BUS_ADDRESS), else to the bus at `address` (a D-Bus address such as `unix:path=/run/x`). Method
/// calls made on it never start (D-Bus activate) a service that is not running. Returns 0 with `*out` set, or a
/// negative errno.
int cns_bus_open(const char *address, uint64_t call_timeout_usec, cns_bus **out);

/// Subscribes to signals (sd_bus_add_match with a match rule such as `type='signal',sender='…'`): each matching
/// signal that cns_bus_process handles counts in cns_bus_take_signals. Returns 0 or a negative errno.
int cns_bus_add_match(cns_bus *bus, const char *rule);

/// The connection's descriptor, the poll(2) events to wait for on it now (sd_bus_get_events) and how long to
/// wait at most, in milliseconds, or -1 for no limit (sd_bus_get_timeout, relative to now).
int cns_bus_fd(cns_bus *bus);
int cns_bus_events(cns_bus *bus);
int cns_bus_timeout_ms(cns_bus *bus);

/// Handles one pending message (sd_bus_process): 1 if there may be more, 0 if there is none, a negative errno when
/// the connection is lost.
int cns_bus_process(cns_bus *bus);

/// The number of matching signals handled since the last call, and resets it.
uint64_t cns_bus_take_signals(cns_bus *bus);

/// org.freedesktop.DBus.Properties.Get of a property of type `u` (uint32). Returns 0, or a negative errno with the
/// D-Bus error's name (for example `org.freedesktop.DBus.Error.ServiceUnknown`) in `error_name` when there was one.
int cns_bus_get_u32(cns_bus *bus, const char *destination, const char *path, const char *interface,
                    const char *property, uint32_t *value, char *error_name, size_t error_size);

/// The same for a property of type `s`: `*value` is allocated (free it with free()).
int cns_bus_get_string(cns_bus *bus, const char *destination, const char *path, const char *interface,
                       const char *property, char **value, char *error_name, size_t error_size);

/// The same for a property of type `ao` or `as`: `*value` is a NULL-terminated array of allocated strings, freed
/// with cns_strv_free.
int cns_bus_get_strv(cns_bus *bus, const char *destination, const char *path, const char *interface,
                     const char *property, char ***value, char *error_name, size_t error_size);

/// Frees an array of strings from cns_bus_get_strv.
void cns_strv_free(char **strv);

/// Closes the connection and frees it.
void cns_bus_close(cns_bus *bus);
#endif

#endif
