// The version of Meterdesk these programs and libraries were built as (the
// CMake project version), for --version, Help ▸ About and /v1/meterdesk/about.
#pragma once

#include <QString>

namespace md::api {

QString meterdeskVersion();

} // namespace md::api
