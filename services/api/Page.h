// Paged lists on the wire: the request every list takes (search or owner,
// limit, cursor) and the page it answers, for any row type.
#pragma once

#include "services/api/JsonReader.h"
#include "services/api/JsonWriter.h"
#include "services/api/WireCodec.h"

#include <QList>
#include <QString>

#include <optional>

namespace md::api {

// A page request shared by the paged lists: an optional search or owner, a
// limit of 1..200 (default 50) and the opaque cursor of the previous page.
struct PageRequest
{
    // A search is typed by a person; bounded so a pattern never costs much.
    static constexpr qsizetype MaxSearch = 200;

    std::optional<QString> search;     // customers: part of the id, name or email
    std::optional<QString> customerId; // usage events: one customer
    // Usage events only: one feature, one model, and a time range [from, to) in ms.
    std::optional<QString> featureId;
    std::optional<QString> modelId;
    std::optional<qint64> from;
    std::optional<qint64> to;
    qint64 limit = 50;
    QString startCursor;

    static PageRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const PageRequest &, const PageRequest &) = default;
};

// `{ list, has_more, next_cursor }`: a page of any list.
template <typename T> struct Page
{
    QList<T> list;
    bool hasMore = false;
    std::optional<QString> nextCursor;

    static Page read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const Page &, const Page &) = default;
};

template <typename T> Page<T> Page<T>::read(const JsonReader &reader)
{
    using namespace Qt::StringLiterals;
    reader.object();
    Page page;
    page.list = readList<T>(reader.field("list"_L1));
    page.hasMore = reader.field("has_more"_L1).boolean();
    page.nextCursor = reader.field("next_cursor"_L1).nullableString();
    if (reader.ok() && page.hasMore != page.nextCursor.has_value())
        reader.field("next_cursor"_L1).fail(u"must be a string exactly when has_more is true"_s);
    return page;
}

template <typename T> void Page<T>::write(JsonWriter &writer) const
{
    using namespace Qt::StringLiterals;
    writer.beginObject().key("list"_L1);
    writeList(writer, list);
    writer.field("has_more"_L1, hasMore).field("next_cursor"_L1, nextCursor).endObject();
}

} // namespace md::api
