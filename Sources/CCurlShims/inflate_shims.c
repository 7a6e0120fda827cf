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
