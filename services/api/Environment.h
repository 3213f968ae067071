// The environment a key, customer or product belongs to (`sandbox` or `production`).
#pragma once

#include "services/api/WireCodec.h"

namespace md::api {

enum class Environment { Sandbox, Production };

QLatin1StringView toWire(Environment value);
Environment readEnvironment(const JsonReader &reader);

} // namespace md::api
