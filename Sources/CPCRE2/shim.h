#ifndef FASTROUTER_CPCRE2_SHIM_H
#define FASTROUTER_CPCRE2_SHIM_H

/* pcre2.h needs the code unit width before it is included; the router uses 8-bit UTF-8. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* pcre2.h declares its API through width-suffixed macros (pcre2_compile -> pcre2_compile_8),
   which Swift cannot import. These wrappers give Swift plain, named functions. */
static inline pcre2_code_8 *fr_pcre2_compile(const unsigned char *pattern, size_t length, uint32_t options,
                                             int *errorcode, size_t *erroroffset) {
    return pcre2_compile_8(pattern, length, options, errorcode, erroroffset, NULL);
}
static inline int fr_pcre2_jit_compile(pcre2_code_8 *code) { return pcre2_jit_compile_8(code, PCRE2_JIT_COMPLETE); }
static inline void fr_pcre2_code_free(pcre2_code_8 *code) { pcre2_code_free_8(code); }
static inline int fr_pcre2_get_error_message(int code, unsigned char *buffer, size_t size) {
    return pcre2_get_error_message_8(code, buffer, size);
}
static inline pcre2_match_data_8 *fr_pcre2_match_data_create(uint32_t pairs) { return pcre2_match_data_create_8(pairs, NULL); }
static inline void fr_pcre2_match_data_free(pcre2_match_data_8 *data) { pcre2_match_data_free_8(data); }
static inline pcre2_match_context_8 *fr_pcre2_match_context_create(void) { return pcre2_match_context_create_8(NULL); }
static inline void fr_pcre2_match_context_free(pcre2_match_context_8 *context) { pcre2_match_context_free_8(context); }
static inline int fr_pcre2_set_match_limit(pcre2_match_context_8 *context, uint32_t limit) {
    return pcre2_set_match_limit_8(context, limit);
}
static inline int fr_pcre2_set_depth_limit(pcre2_match_context_8 *context, uint32_t limit) {
    return pcre2_set_depth_limit_8(context, limit);
}
static inline int fr_pcre2_set_heap_limit(pcre2_match_context_8 *context, uint32_t kibibytes) {
    return pcre2_set_heap_limit_8(context, kibibytes);
}
/* A JIT stack per match context lets JIT matches recurse deeper than the 32 KiB default
   on the machine stack, without touching the calling thread's stack. */
static inline pcre2_jit_stack_8 *fr_pcre2_jit_stack_create(size_t start_size, size_t max_size) {
    return pcre2_jit_stack_create_8(start_size, max_size, NULL);
}
static inline void fr_pcre2_jit_stack_free(pcre2_jit_stack_8 *stack) { pcre2_jit_stack_free_8(stack); }
static inline void fr_pcre2_jit_stack_assign(pcre2_match_context_8 *context, pcre2_jit_stack_8 *stack) {
    pcre2_jit_stack_assign_8(context, NULL, stack);
}
static inline int fr_pcre2_match(const pcre2_code_8 *code, const unsigned char *subject, size_t length,
                                 uint32_t options, pcre2_match_data_8 *data, pcre2_match_context_8 *context) {
    return pcre2_match_8(code, subject, length, 0, options, data, context);
}
static inline int fr_pcre2_pattern_info_uint32(const pcre2_code_8 *code, uint32_t what, uint32_t *out) {
    return pcre2_pattern_info_8(code, what, out);
}

/* Size of the JIT-compiled code, 0 when the pattern runs in the interpreter (no JIT, or (*NO_JIT)). */
static inline size_t fr_pcre2_jit_size(const pcre2_code_8 *code) {
    size_t size = 0;
    return pcre2_pattern_info_8(code, PCRE2_INFO_JITSIZE, &size) == 0 ? size : 0;
}

#endif
