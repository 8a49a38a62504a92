// The part of sherpa-onnx's C API (c-api.h, sherpa-onnx-core 2.0.1) that manna-play uses for
// Piper voices: its structs, so the C compiler lays them out, and its functions as pointer
// types. Nothing links the library: manna-play loads it with dlopen when it is installed
// (Sources/manna-play/Piper.swift), and works without it.
#include <stdint.h>

typedef struct SherpaOnnxOfflineTtsVitsModelConfig {
  const char *model;
  const char *lexicon;
  const char *tokens;
  const char *data_dir;
  float noise_scale;
  float noise_scale_w;
  float length_scale;
  const char *dict_dir;
} SherpaOnnxOfflineTtsVitsModelConfig;

typedef struct SherpaOnnxOfflineTtsMatchaModelConfig {
  const char *acoustic_model, *vocoder, *lexicon, *tokens, *data_dir;
  float noise_scale, length_scale;
  const char *dict_dir;
} SherpaOnnxOfflineTtsMatchaModelConfig;

typedef struct SherpaOnnxOfflineTtsKokoroModelConfig {
  const char *model, *voices, *tokens, *data_dir;
  float length_scale;
  const char *dict_dir, *lexicon, *lang;
} SherpaOnnxOfflineTtsKokoroModelConfig;

typedef struct SherpaOnnxOfflineTtsKittenModelConfig {
  const char *model, *voices, *tokens, *data_dir;
  float length_scale;
  const char *lexicon;
} SherpaOnnxOfflineTtsKittenModelConfig;

typedef struct SherpaOnnxOfflineTtsZipvoiceModelConfig {
  const char *tokens, *encoder, *decoder, *vocoder, *data_dir, *lexicon;
  float feat_scale, t_shift, target_rms, guidance_scale;
} SherpaOnnxOfflineTtsZipvoiceModelConfig;

typedef struct SherpaOnnxOfflineTtsPocketModelConfig {
  const char *lm_flow, *lm_main, *encoder, *decoder, *text_conditioner, *vocab_json, *token_scores_json;
  int32_t voice_embedding_cache_capacity;
} SherpaOnnxOfflineTtsPocketModelConfig;

typedef struct SherpaOnnxOfflineTtsSupertonicModelConfig {
  const char *duration_predictor, *text_encoder, *vector_estimator, *vocoder, *tts_json, *unicode_indexer, *voice_style;
} SherpaOnnxOfflineTtsSupertonicModelConfig;

typedef struct SherpaOnnxOfflineTtsModelConfig {
  SherpaOnnxOfflineTtsVitsModelConfig vits;
  int32_t num_threads;
  int32_t debug;
  const char *provider;
  SherpaOnnxOfflineTtsMatchaModelConfig matcha;
  SherpaOnnxOfflineTtsKokoroModelConfig kokoro;
  SherpaOnnxOfflineTtsKittenModelConfig kitten;
  SherpaOnnxOfflineTtsZipvoiceModelConfig zipvoice;
  SherpaOnnxOfflineTtsPocketModelConfig pocket;
  SherpaOnnxOfflineTtsSupertonicModelConfig supertonic;
} SherpaOnnxOfflineTtsModelConfig;

typedef struct SherpaOnnxOfflineTtsConfig {
  SherpaOnnxOfflineTtsModelConfig model;
  const char *rule_fsts;
  int32_t max_num_sentences;
  const char *rule_fars;
  float silence_scale;
} SherpaOnnxOfflineTtsConfig;

typedef struct SherpaOnnxGeneratedAudio {
  const float *samples;
  int32_t n;
  int32_t sample_rate;
} SherpaOnnxGeneratedAudio;

typedef struct SherpaOnnxGenerationConfig {
  float silence_scale;
  float speed;
  int32_t sid;
  const float *reference_audio;
  int32_t reference_audio_len;
  int32_t reference_sample_rate;
  const char *reference_text;
  int32_t num_steps;
  const char *extra;
  const int32_t *phoneme_codepoints;
  const int32_t *phoneme_codepoints_lens;
  int32_t phoneme_codepoints_num_sentences;
  const char *const *tokens;
  const int32_t *tokens_lens;
  int32_t tokens_num_sentences;
} SherpaOnnxGenerationConfig;

typedef struct SherpaOnnxOfflineTts SherpaOnnxOfflineTts;

typedef const SherpaOnnxOfflineTts *(*SherpaOnnxCreateOfflineTtsFunction)(const SherpaOnnxOfflineTtsConfig *config);
typedef void (*SherpaOnnxDestroyOfflineTtsFunction)(const SherpaOnnxOfflineTts *tts);
typedef const SherpaOnnxGeneratedAudio *(*SherpaOnnxOfflineTtsGenerateWithConfigFunction)(
    const SherpaOnnxOfflineTts *tts, const char *text, const SherpaOnnxGenerationConfig *config,
    int32_t (*callback)(const float *samples, int32_t n, float progress, void *arg), void *arg);
typedef void (*SherpaOnnxDestroyOfflineTtsGeneratedAudioFunction)(const SherpaOnnxGeneratedAudio *audio);
