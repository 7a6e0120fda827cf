#include "bus_shims.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The userdata each vtable entry sees: the Swift handlers and their context. */
struct pdx_object {
    pdx_method_fn method;
    pdx_property_fn property;
    void *userdata;
};

static int method_trampoline(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    struct pdx_object *o = userdata;
    return o->method(m, o->userdata, error);
}

static int property_trampoline(sd_bus *bus, const char *path, const char *interface,
                               const char *property, sd_bus_message *reply,
                               void *userdata, sd_bus_error *error) {
    struct pdx_object *o = userdata;
    return o->property(bus, path, interface, property, reply, o->userdata, error);
}

/* "offset limit total" -> "offset\0limit\0total\0" (the layout SD_BUS_PARAM builds). */
static char *param_names(const char *spaced) {
    size_t n = spaced ? strlen(spaced) : 0;
    char *out = calloc(n + 2, 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++)
        out[i] = spaced[i] == ' ' ? '\0' : spaced[i];
    /* A trailing NUL after the last name; calloc gave the final one. */
    return out;
}

static char *copy(const char *s) { return strdup(s ? s : ""); }

int pdx_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                       const pdx_member *members, size_t count, pdx_method_fn method,
                       pdx_property_fn property, void *userdata) {
    struct pdx_object *o = calloc(1, sizeof(*o));
    /* Zeroed: sd-bus requires the unused parts of each entry's union to be 0. */
    sd_bus_vtable *v = calloc(count + 2, sizeof(sd_bus_vtable));
    if (!o || !v) {
        free(o);
        free(v);
        return -ENOMEM;
    }
    o->method = method;
    o->property = property;
    o->userdata = userdata;

    v[0].type = _SD_BUS_VTABLE_START;
    v[0].x.start.element_size = sizeof(sd_bus_vtable);
    v[0].x.start.features = _SD_BUS_VTABLE_PARAM_NAMES;
    v[0].x.start.vtable_format_reference = &sd_bus_object_vtable_format;

    for (size_t i = 0; i < count; i++) {
        const pdx_member *m = &members[i];
        sd_bus_vtable *e = &v[i + 1];
        switch (m->kind) {
        case PDX_MEMBER_METHOD:
            e->type = _SD_BUS_VTABLE_METHOD;
            e->x.method.member = copy(m->name);
            e->x.method.signature = copy(m->signature);
            e->x.method.result = copy(m->result);
            e->x.method.handler = method_trampoline;
            e->x.method.names = param_names(m->names);
            break;
        case PDX_MEMBER_SIGNAL:
            e->type = _SD_BUS_VTABLE_SIGNAL;
            e->x.signal.member = copy(m->name);
            e->x.signal.signature = copy(m->signature);
            e->x.signal.names = param_names(m->names);
            break;
        case PDX_MEMBER_PROPERTY:
            e->type = _SD_BUS_VTABLE_PROPERTY;
            if (m->flags & PDX_PROPERTY_EMITS_CHANGE)
                e->flags = SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE;
            else if (m->flags & PDX_PROPERTY_CONST)
                e->flags = SD_BUS_VTABLE_PROPERTY_CONST;
            e->x.property.member = copy(m->name);
            e->x.property.signature = copy(m->signature);
            e->x.property.get = property_trampoline;
            break;
        default:
            return -EINVAL;
        }
    }
    v[count + 1].type = _SD_BUS_VTABLE_END;
    return sd_bus_add_object_vtable(bus, slot, path, interface, v, o);
}

int pdx_append_uss_array(sd_bus_message *m, const uint32_t *ids, const char *strings, size_t count) {
    int r = sd_bus_message_open_container(m, SD_BUS_TYPE_ARRAY, "(uss)");
    if (r < 0)
        return r;
    const char *p = strings;
    for (size_t i = 0; i < count; i++) {
        const char *a = p;
        p += strlen(p) + 1;
        const char *b = p;
        p += strlen(p) + 1;
        /* sd_bus_message_append() would parse "(uss)" again for every entry. */
        if ((r = sd_bus_message_open_container(m, SD_BUS_TYPE_STRUCT, "uss")) < 0 ||
            (r = sd_bus_message_append_basic(m, SD_BUS_TYPE_UINT32, &ids[i])) < 0 ||
            (r = sd_bus_message_append_basic(m, SD_BUS_TYPE_STRING, a)) < 0 ||
            (r = sd_bus_message_append_basic(m, SD_BUS_TYPE_STRING, b)) < 0 ||
            (r = sd_bus_message_close_container(m)) < 0)
            return r;
    }
    return sd_bus_message_close_container(m);
}
