# One interface target with every compile setting; each library links it.
# Declared before its use below: a first configure must already add -Werror,
# or the second one changes every command line and rebuilds everything.
option(MD_WARNINGS_AS_ERRORS "Treat warnings as errors" ON)
add_library(meterdesk_compile_settings INTERFACE)
target_compile_features(meterdesk_compile_settings INTERFACE cxx_std_20)
target_compile_definitions(meterdesk_compile_settings INTERFACE
  QT_NO_CAST_FROM_ASCII
  QT_NO_CAST_TO_ASCII
  QT_NO_CAST_FROM_BYTEARRAY
  QT_NO_URL_CAST_FROM_STRING
  QT_NO_CONTEXTLESS_CONNECT
  QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
  QT_NO_FOREACH
  QT_NO_KEYWORDS
  QT_USE_QSTRINGBUILDER
  QT_STRICT_ITERATORS
  QT_DISABLE_DEPRECATED_BEFORE=0x060400
)
target_compile_options(meterdesk_compile_settings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
  -Woverloaded-virtual -Wimplicit-fallthrough
  $<$<BOOL:${MD_WARNINGS_AS_ERRORS}>:-Werror>
)
target_include_directories(meterdesk_compile_settings INTERFACE ${PROJECT_SOURCE_DIR})

# lld links a test in a fifth of the time GNU ld takes (docs/build-time.md);
# setup.sh installs it, and a machine without it links with the default.
include(CheckLinkerFlag)
check_linker_flag(CXX -fuse-ld=lld MD_HAVE_LLD)
if(MD_HAVE_LLD)
  target_link_options(meterdesk_compile_settings INTERFACE -fuse-ld=lld)
endif()
