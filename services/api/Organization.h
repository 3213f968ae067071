// A tenant organization of a platform (docs/api.md, Organizations).
#pragma once

#include "services/api/WireCodec.h"

namespace md::api {

struct Organization
{
    QString id;
    QString slug;

    static Organization read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Organization &, const Organization &) = default;
};

} // namespace md::api
