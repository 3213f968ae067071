// A tenant organization of a platform (billing-api.md §2.6).
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
