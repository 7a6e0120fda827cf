#include "curl_shims.h"
#include <limits.h>
#include <stdlib.h>
#include <zlib.h>

struct pdx_inflater { z_stream z; };

pdx_inflater *pdx_inflate_begin(int raw) {
    pdx_inflater *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    /* 15 + 32: a zlib or a gzip header, whichever it has; -15: none. */
    if (inflateInit2(&s->z, raw ? -MAX_WBITS : MAX_WBITS + 32) != Z_OK) {
        free(s);
        return NULL;
    }
    return s;
}

int pdx_inflate_run(pdx_inflater *s, const unsigned char *in, size_t in_len, size_t *in_used,
                    unsigned char *out, size_t out_len, size_t *out_used) {
    /* zlib counts in uInt: at most UINT_MAX a call; the caller calls again for the rest. */
    uInt in_n = in_len > UINT_MAX ? UINT_MAX : (uInt)in_len;
    uInt out_n = out_len > UINT_MAX ? UINT_MAX : (uInt)out_len;
    s->z.next_in = (Bytef *)in;
    s->z.avail_in = in_n;
    s->z.next_out = out;
    s->z.avail_out = out_n;
    int rc = inflate(&s->z, Z_NO_FLUSH);
    *in_used = in_n - s->z.avail_in;
    *out_used = out_n - s->z.avail_out;
    if (rc == Z_STREAM_END) return 1;
    if (rc == Z_OK || rc == Z_BUF_ERROR) return 0;
    return -1;  /* Z_DATA_ERROR, Z_NEED_DICT, Z_MEM_ERROR, Z_STREAM_ERROR */
}

void pdx_inflate_end(pdx_inflater *s) {
    if (!s) return;
    inflateEnd(&s->z);
    free(s);
}

/* ---- Whole bodies: libdeflate -------------------------------------------------------------- */
#include <libdeflate.h>
#include <pthread.h>

/* One decompressor a thread (each is ~32 KB of tables), freed when its thread ends. */
static pthread_key_t decompressor_key;
static pthread_once_t decompressor_once = PTHREAD_ONCE_INIT;

static void free_decompressor(void *d) { libdeflate_free_decompressor(d); }
static void make_decompressor_key(void) { (void)pthread_key_create(&decompressor_key, free_decompressor); }

static struct libdeflate_decompressor *thread_decompressor(void) {
    (void)pthread_once(&decompressor_once, make_decompressor_key);
    struct libdeflate_decompressor *d = pthread_getspecific(decompressor_key);
    if (!d) {
        d = libdeflate_alloc_decompressor();
        if (d && pthread_setspecific(decompressor_key, d) != 0) {
            libdeflate_free_decompressor(d);
            return NULL;
        }
    }
    return d;
}

int pdx_inflate_whole(int format, const unsigned char *in, size_t in_len,
                      unsigned char *out, size_t out_len, size_t *out_used) {
    struct libdeflate_decompressor *d = thread_decompressor();
    if (!d) return PDX_WHOLE_NO_MEMORY;
    size_t in_used = 0;
    enum libdeflate_result rc;
    switch (format) {
    case PDX_WHOLE_GZIP: rc = libdeflate_gzip_decompress_ex(d, in, in_len, out, out_len, &in_used, out_used); break;
    case PDX_WHOLE_ZLIB: rc = libdeflate_zlib_decompress_ex(d, in, in_len, out, out_len, &in_used, out_used); break;
    default: rc = libdeflate_deflate_decompress_ex(d, in, in_len, out, out_len, &in_used, out_used); break;
    }
    switch (rc) {
    case LIBDEFLATE_SUCCESS: return in_used == in_len ? PDX_WHOLE_DONE : PDX_WHOLE_NOT_WHOLE;
    case LIBDEFLATE_INSUFFICIENT_SPACE: return PDX_WHOLE_NO_ROOM;
    default: return PDX_WHOLE_BAD;
    }
}
