#include "bus_shims.h"
#include <errno.h>
#include <stdlib.h>

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

#define ENTRY "(ussb)"
static const sd_bus_vtable pokedex_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD_WITH_NAMES("ListPage", "uu", SD_BUS_PARAM(offset) SD_BUS_PARAM(limit),
                             "ua" ENTRY, SD_BUS_PARAM(total) SD_BUS_PARAM(entries),
                             method_trampoline, 0),
    SD_BUS_METHOD_WITH_NAMES("Detail", "s", SD_BUS_PARAM(pokemon),
                             "a{sv}", SD_BUS_PARAM(detail), method_trampoline, 0),
    SD_BUS_METHOD_WITH_NAMES("Search", "su", SD_BUS_PARAM(query) SD_BUS_PARAM(limit),
                             "a" ENTRY, SD_BUS_PARAM(results), method_trampoline, 0),
    SD_BUS_METHOD_WITH_NAMES("SearchDetailed", "su", SD_BUS_PARAM(query) SD_BUS_PARAM(limit),
                             "aa{sv}", SD_BUS_PARAM(results), method_trampoline, 0),
    SD_BUS_METHOD_WITH_NAMES("ToggleFavorite", "s", SD_BUS_PARAM(pokemon),
                             "b", SD_BUS_PARAM(favorite), method_trampoline, 0),
    SD_BUS_METHOD_WITH_NAMES("SetFavorite", "sb", SD_BUS_PARAM(pokemon) SD_BUS_PARAM(favorite),
                             "", "", method_trampoline, 0),
    SD_BUS_METHOD_WITH_NAMES("ListFavorites", "", "",
                             "a" ENTRY, SD_BUS_PARAM(favorites), method_trampoline, 0),
    SD_BUS_METHOD_WITH_NAMES("SpritePath", "s", SD_BUS_PARAM(pokemon),
                             "s", SD_BUS_PARAM(path), method_trampoline, 0),
    SD_BUS_METHOD_WITH_NAMES("Status", "", "",
                             "a{sv}", SD_BUS_PARAM(status), method_trampoline, 0),
    SD_BUS_METHOD_WITH_NAMES("Sync", "", "",
                             "uu", SD_BUS_PARAM(complete) SD_BUS_PARAM(failed), method_trampoline, 0),
    SD_BUS_SIGNAL_WITH_NAMES("FavoriteChanged", "usb",
                             SD_BUS_PARAM(id) SD_BUS_PARAM(name) SD_BUS_PARAM(favorite), 0),
    SD_BUS_PROPERTY("Favorites", "au", property_trampoline, 0,
                    SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("Online", "b", property_trampoline, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("SyncProgress", "(uu)", property_trampoline, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("SearchCoverage", "(uu)", property_trampoline, 0, 0),
    SD_BUS_PROPERTY("Version", "s", property_trampoline, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("ApiUrl", "s", property_trampoline, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END
};

int pdx_bus_add_pokedex_object(sd_bus *bus, sd_bus_slot **slot, const char *path,
                               const char *interface, pdx_method_fn method,
                               pdx_property_fn property, void *userdata) {
    /* Lives as long as the process: the object is registered once. */
    struct pdx_object *o = calloc(1, sizeof(*o));
    if (!o)
        return -ENOMEM;
    o->method = method;
    o->property = property;
    o->userdata = userdata;
    return sd_bus_add_object_vtable(bus, slot, path, interface, pokedex_vtable, o);
}

