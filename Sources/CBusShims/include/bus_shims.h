#pragma once
#include <systemd/sd-bus.h>

/* ---- sd-bus: the Pokedex1 vtable ------------------------------------------
 * The SD_BUS_* macros build the vtable in C. Every method goes to one Swift
 * handler, every property to one Swift getter; they switch on the member. */

typedef int (*pdx_method_fn)(sd_bus_message *m, void *userdata, sd_bus_error *error);
typedef int (*pdx_property_fn)(sd_bus *bus, const char *path, const char *interface,
                               const char *property, sd_bus_message *reply,
                               void *userdata, sd_bus_error *error);

/* Registers the io.github.pokedexd.Pokedex1 interface at `path`. */
int pdx_bus_add_pokedex_object(sd_bus *bus, sd_bus_slot **slot, const char *path,
                               const char *interface, pdx_method_fn method,
                               pdx_property_fn property, void *userdata);

