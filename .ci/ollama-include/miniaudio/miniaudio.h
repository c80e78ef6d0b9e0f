/*
 * Stand-in for miniaudio.h, used only to build Ollama from the Go module proxy
 * in CI (.ci/run). Go module zips omit llama.cpp's vendor/ directory and
 * Debian ships no miniaudio package. This header declares exactly what
 * llama/llama.cpp/tools/mtmd/mtmd-helper.cpp uses; every decoder call fails,
 * so audio input is refused ("Unable to read WAV audio file") and text models
 * are unaffected. It is not miniaudio and implements none of it.
 */
#ifndef VOUCH_MINIAUDIO_STANDIN_H
#define VOUCH_MINIAUDIO_STANDIN_H

#include <stddef.h>
#include <stdint.h>

typedef int ma_result;
typedef uint32_t ma_uint32;
typedef uint64_t ma_uint64;

#define MA_SUCCESS 0
#define MA_NOT_IMPLEMENTED (-29)

typedef enum { ma_format_unknown = 0, ma_format_f32 = 5 } ma_format;
typedef enum { ma_encoding_format_unknown = 0, ma_encoding_format_wav = 1 } ma_encoding_format;

typedef struct {
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_decoder_config;

typedef struct {
    int unused;
} ma_decoder;

typedef struct {
    ma_encoding_format encodingFormat;
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_encoder_config;

typedef struct {
    int unused;
} ma_encoder;

static inline ma_decoder_config ma_decoder_config_init(ma_format format, ma_uint32 channels, ma_uint32 sampleRate) {
    ma_decoder_config c;
    c.format = format;
    c.channels = channels;
    c.sampleRate = sampleRate;
    return c;
}

static inline ma_result ma_decoder_init_memory(const void *data, size_t size, const ma_decoder_config *config, ma_decoder *decoder) {
    (void)data; (void)size; (void)config; (void)decoder;
    return MA_NOT_IMPLEMENTED;
}

static inline ma_result ma_decoder_get_length_in_pcm_frames(ma_decoder *decoder, ma_uint64 *length) {
    (void)decoder;
    if (length) *length = 0;
    return MA_NOT_IMPLEMENTED;
}

static inline ma_result ma_decoder_read_pcm_frames(ma_decoder *decoder, void *out, ma_uint64 count, ma_uint64 *read) {
    (void)decoder; (void)out; (void)count;
    if (read) *read = 0;
    return MA_NOT_IMPLEMENTED;
}

static inline ma_result ma_decoder_uninit(ma_decoder *decoder) {
    (void)decoder;
    return MA_SUCCESS;
}

static inline ma_encoder_config ma_encoder_config_init(ma_encoding_format encodingFormat, ma_format format, ma_uint32 channels, ma_uint32 sampleRate) {
    ma_encoder_config c;
    c.encodingFormat = encodingFormat;
    c.format = format;
    c.channels = channels;
    c.sampleRate = sampleRate;
    return c;
}

static inline ma_result ma_encoder_init_file(const char *path, const ma_encoder_config *config, ma_encoder *encoder) {
    (void)path; (void)config; (void)encoder;
    return MA_NOT_IMPLEMENTED;
}

static inline ma_result ma_encoder_write_pcm_frames(ma_encoder *encoder, const void *in, ma_uint64 count, ma_uint64 *written) {
    (void)encoder; (void)in; (void)count;
    if (written) *written = 0;
    return MA_NOT_IMPLEMENTED;
}

static inline ma_result ma_encoder_uninit(ma_encoder *encoder) {
    (void)encoder;
    return MA_SUCCESS;
}

#endif
