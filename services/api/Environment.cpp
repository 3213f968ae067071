#include "services/api/Environment.h"

#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

constexpr std::pair<QLatin1StringView, Environment> EnvironmentWords[] = {
    {"sandbox"_L1, Environment::Sandbox},
    {"production"_L1, Environment::Production},
};

} // namespace

QLatin1StringView toWire(Environment value)
{
    return wordOf(EnvironmentWords, value);
}

Environment readEnvironment(const JsonReader &reader)
{
    return reader.word(EnvironmentWords);
}

} // namespace md::api
