#pragma once
#include <systemd/sd-bus.h>
#include <curl/curl.h>

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

/* ---- libcurl: variadic setters and getters, one per argument type --------- */
CURLcode pdx_easy_setopt_long(CURL *h, CURLoption o, long v);
CURLcode pdx_easy_setopt_ptr(CURL *h, CURLoption o, void *v);
CURLcode pdx_easy_setopt_str(CURL *h, CURLoption o, const char *v);
CURLcode pdx_easy_setopt_write_fn(CURL *h, CURLoption o,
                                  size_t (*fn)(char *, size_t, size_t, void *));
CURLcode pdx_easy_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode pdx_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v);
CURLMcode pdx_multi_setopt_long(CURLM *m, CURLMoption o, long v);
CURLMcode pdx_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v);
CURLMcode pdx_multi_setopt_socket_fn(CURLM *m,
                                     int (*fn)(CURL *, curl_socket_t, int, void *, void *));
CURLMcode pdx_multi_setopt_timer_fn(CURLM *m, int (*fn)(CURLM *, long, void *));
