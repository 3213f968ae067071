// The organization's Stripe secret key for the calling key's environment,
// connected from the console or any client (docs/api.md,
// "processors.keys"; docs/processors.md, "Keys"): the key goes in once
// and only its hint ever comes back.
#pragma once

#include "services/api/JsonReader.h"
#include "services/api/JsonWriter.h"

namespace md::api {

struct ProcessorKeyConnect
{
    QString secret; // never written back, logged or stored but sealed

    static ProcessorKeyConnect read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ProcessorKeyConnect &, const ProcessorKeyConnect &) = default;
};

struct ProcessorKeyInfo
{
    QString env;  // test or live
    QString hint; // sk_test_…1234
    qint64 connectedAt = 0;

    static ProcessorKeyInfo read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ProcessorKeyInfo &, const ProcessorKeyInfo &) = default;
};

} // namespace md::api
