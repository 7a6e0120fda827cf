#pragma once
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

/* ---- sd-bus: a vtable built at run time -------------------------------------
 * The SD_BUS_* macros build vtables from literals at compile time. The service's
 * interfaces are described once, in Swift (PokedexProtocol); this builds the same
 * sd_bus_vtable from that description. Every method goes to one Swift handler and
 * every property to one Swift getter, which look the member up in the description. */

typedef int (*pdx_method_fn)(sd_bus_message *m, void *userdata, sd_bus_error *error);
typedef int (*pdx_property_fn)(sd_bus *bus, const char *path, const char *interface,
                               const char *property, sd_bus_message *reply,
                               void *userdata, sd_bus_error *error);

enum {
    PDX_MEMBER_METHOD = 'M',
    PDX_MEMBER_SIGNAL = 'S',
    PDX_MEMBER_PROPERTY = 'P',
};

enum {
    PDX_PROPERTY_EMITS_CHANGE = 1,
    PDX_PROPERTY_CONST = 2,
};

/* One member. Strings are copied; the caller may free them after the call.
 * names: the argument names, space-separated, in signature order (in, then out). */
typedef struct pdx_member {
    char kind;
    const char *name;
    const char *signature; /* method: in; signal: values; property: its type */
    const char *result;    /* method: out; else NULL */
    const char *names;
    unsigned flags;        /* property: PDX_PROPERTY_* */
} pdx_member;

/* Registers `interface` at `path` with these members. The vtable lives as long as
 * the process: an object is registered once. */
int pdx_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                       const pdx_member *members, size_t count, pdx_method_fn method,
                       pdx_property_fn property, void *userdata);

/* ---- sd-bus: a long a(uss) in one call ---------------------------------------
 * Appends an array of `count` (uss) structures: ids[i], then two strings read in turn
 * from `strings`, 2 * count NUL-terminated strings back to back (valid UTF-8, no NUL
 * inside). One call from Swift for a reply of thousands of entries (DisplayNames), so the
 * loop thread spends its time in sd-bus's copy, not in per-entry calls. */
int pdx_append_uss_array(sd_bus_message *m, const uint32_t *ids, const char *strings, size_t count);
