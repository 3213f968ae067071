#include "models/usage/UsageFile.h"

#include "models/common/FieldWords.h"
#include "models/import/ImportJournal.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonObject>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

struct Field
{
    UsageField field;
    QLatin1StringView wire;
    std::initializer_list<QLatin1StringView> aliases;
};

const Field Fields[] = {
    {UsageField::CustomerId, "customer_id"_L1, {"customer"_L1, "customer id"_L1}},
    {UsageField::FeatureId, "feature_id"_L1, {"feature"_L1, "feature id"_L1, "meter"_L1}},
    {UsageField::ModelId, "model_id"_L1, {"model"_L1}},
    {UsageField::EntityId, "entity_id"_L1, {"entity"_L1}},
    {UsageField::Value, "value"_L1, {"quantity"_L1, "amount"_L1, "usage"_L1}},
    {UsageField::InputTokens, "input_tokens"_L1, {"input"_L1}},
    {UsageField::OutputTokens, "output_tokens"_L1, {"output"_L1}},
    {UsageField::Timestamp, "timestamp"_L1, {"time"_L1, "date"_L1, "at"_L1}},
    {UsageField::IdempotencyKey, "idempotency_key"_L1, {"key"_L1, "event_id"_L1, "id"_L1}},
};

// Keys for the rows that have none. A row with a time is keyed by what it
// says (customer, entity, feature or model, amounts, time) and how many
// identical rows came before it, so the same events keep their keys when the
// file is edited or exported again, and another file's events never share
// them. The key begins with the customer's hash, so that one customer's keys
// sit together in the server's unique index of keys: a request (by customer)
// then dirties a few of its pages, not one an event. A row without a time could be any day's: it is
// keyed by the file and its line (prefix), safe against sending the same file again only.
void assignKeys(QList<UsageRow> &rows, const QString &prefix, UsageKeyFormat format)
{
    QHash<QByteArray, int> seen;
    for (UsageRow &row : rows) {
        if (!row.event || row.event->idempotencyKey)
            continue;
        const api::TrackTokensRequest &call = row.event->call;
        if (!call.timestamp) {
            row.event->idempotencyKey = u"%1-%2"_s.arg(prefix).arg(row.line);
            continue;
        }
        const QString what = QStringList{call.customerId,
                                         call.entityId.value_or(QString()),
                                         call.featureId.value_or(QString()),
                                         call.modelId,
                                         call.value ? call.value->toString() : QString(),
                                         QString::number(call.inputTokens),
                                         QString::number(call.outputTokens),
                                         QString::number(*call.timestamp)}
                                 .join(u'\x1f');
        const QByteArray digest =
            QCryptographicHash::hash(what.toUtf8(), QCryptographicHash::Sha256).toHex().left(24);
        const int n = ++seen[digest];
        if (format == UsageKeyFormat::EventOnly) {
            row.event->idempotencyKey = u"usage-%1-%2"_s.arg(QString::fromLatin1(digest)).arg(n);
            continue;
        }
        const QByteArray owner =
            QCryptographicHash::hash(call.customerId.toUtf8(), QCryptographicHash::Sha256)
                .toHex()
                .left(8);
        row.event->idempotencyKey =
            u"usage-%1-%2-%3"_s.arg(QString::fromLatin1(owner), QString::fromLatin1(digest)).arg(n);
    }
}

// A time cell: milliseconds since 1970, or an ISO 8601 date and time (UTC
// when it names no zone).
std::optional<qint64> timeOf(const QString &text)
{
    bool number = false;
    const qint64 ms = text.toLongLong(&number);
    if (number)
        return ms;
    QDateTime at = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!at.isValid())
        return std::nullopt;
    if (at.timeSpec() == Qt::LocalTime)
        at.setTimeSpec(Qt::UTC);
    return at.toMSecsSinceEpoch();
}

void checkCsvRow(UsageRow &row, const UsageMapping &mapping)
{
    row.event.reset();
    row.cellErrors.clear();
    row.error.clear();
    const auto cell = [&](UsageField field) {
        const int column = mapping.column(field);
        return column >= 0 && column < row.cells.size() ? row.cells.at(column).trimmed()
                                                        : QString();
    };
    const bool tokens = !cell(UsageField::ModelId).isEmpty();
    // The event as JSON, then the wire decoder checks it as the server will.
    api::JsonValue event =
        api::JsonValue::object({{"kind"_L1, tokens ? u"tokens"_s : u"feature"_s},
                                {"customer_id"_L1, cell(UsageField::CustomerId)}});
    const auto put = [&](UsageField field, bool number) {
        const QString text = cell(field);
        if (text.isEmpty())
            return;
        event.insert(UsageMapping::wireName(field),
                     number ? api::JsonValue::numberOrString(text) : api::JsonValue::string(text));
    };
    put(UsageField::FeatureId, false);
    put(UsageField::ModelId, false);
    put(UsageField::EntityId, false);
    put(UsageField::IdempotencyKey, false);
    if (tokens) {
        put(UsageField::InputTokens, true);
        put(UsageField::OutputTokens, true);
    } else {
        put(UsageField::Value, true);
    }
    if (const QString at = cell(UsageField::Timestamp); !at.isEmpty()) {
        if (const auto ms = timeOf(at))
            event.insert(u"timestamp"_s, *ms);
        else
            row.cellErrors.insert(mapping.column(UsageField::Timestamp),
                                  UsageFile::tr("not a time: give milliseconds since 1970 or an "
                                                "ISO 8601 date and time"));
    }
    auto read = api::UsageBatchEvent::read(event);
    if (!read) {
        // The cell the decoder's path names says what is wrong with it.
        const QString path = FieldWords::path(read.error());
        int column = -1;
        for (const Field &field : Fields)
            if (path == field.wire)
                column = mapping.column(field.field);
        if (column >= 0)
            row.cellErrors.insert(column, FieldWords::problem(read.error()));
        else
            row.error = FieldWords::sentence(read.error());
        return;
    }
    if (!row.cellErrors.isEmpty())
        return;
    row.event = read.value();
}

QList<UsageRow> readJson(const QString &text, ImportFormat format)
{
    QList<UsageRow> rows;
    for (ImportRow &source :
         ImportSource::readJsonValues(text, format, UsageFile::tr("usage events"))) {
        UsageRow row;
        row.line = source.line;
        if (!source.error.isEmpty()) {
            row.error = source.error;
            rows.append(row);
            continue;
        }
        api::JsonValue event = source.body;
        if (event.isObject() && event.value("kind"_L1).isUndefined())
            event.insert(u"kind"_s,
                         event.value("model_id"_L1).isUndefined() ? u"feature"_s : u"tokens"_s);
        auto read = api::UsageBatchEvent::read(event);
        if (read) {
            row.event = read.value();
        } else {
            row.error = FieldWords::sentence(read.error());
        }
        rows.append(row);
    }
    return rows;
}

} // namespace

QString UsageMapping::wireName(UsageField field)
{
    for (const Field &each : Fields)
        if (each.field == field)
            return each.wire;
    return {};
}

UsageMapping UsageMapping::guess(const QStringList &header)
{
    UsageMapping mapping;
    for (const Field &field : Fields)
        for (int c = 0; c < header.size() && !mapping.columns.contains(field.field); ++c) {
            const QString name = header.at(c).trimmed().toLower();
            if (name == field.wire ||
                std::find(field.aliases.begin(), field.aliases.end(), name) != field.aliases.end())
                mapping.columns.insert(field.field, c);
        }
    return mapping;
}

QJsonObject UsageMapping::toJson(const QStringList &header) const
{
    QJsonObject object;
    for (auto it = columns.cbegin(); it != columns.cend(); ++it)
        if (it.value() >= 0 && it.value() < header.size())
            object.insert(wireName(it.key()), header.at(it.value()));
    return object;
}

UsageMapping UsageMapping::fromJson(const QJsonObject &object, const QStringList &header)
{
    UsageMapping mapping;
    for (const Field &field : Fields)
        if (const int c = int(header.indexOf(object.value(field.wire).toString())); c >= 0)
            mapping.columns.insert(field.field, c);
    return mapping;
}

QString UsageFile::keyPrefix(const QByteArray &data)
{
    return u"backfill-"_s + QString::fromLatin1(ImportJournal::hash(data).left(16));
}

UsageFileContent UsageFile::read(const QByteArray &data, const QString &fileName,
                                 const std::optional<UsageMapping> &mapping,
                                 const QString &keyPrefix, UsageKeyFormat keyFormat)
{
    UsageFileContent content;
    content.keyFormat = keyFormat;
    const QString text = ImportSource::decode(data);
    content.format = ImportSource::detect(fileName, data);
    if (content.format != ImportFormat::Csv) {
        content.rows = readJson(text, content.format);
        assignKeys(content.rows, keyPrefix, keyFormat);
        return content;
    }
    content.separator = ImportSource::guessSeparator(text);
    QList<int> lines;
    const QList<QStringList> records = ImportSource::parseCsv(text, content.separator, &lines);
    if (records.isEmpty())
        return content;
    content.header = records.first();
    content.rows.reserve(records.size() - 1);
    for (qsizetype r = 1; r < records.size(); ++r)
        content.rows.append(UsageRow{lines.at(r), records.at(r), {}, {}, {}});
    remap(content, mapping.value_or(UsageMapping::guess(content.header)), keyPrefix);
    return content;
}

void UsageFile::remap(UsageFileContent &content, const UsageMapping &mapping,
                      const QString &keyPrefix)
{
    for (UsageRow &row : content.rows)
        checkCsvRow(row, mapping);
    assignKeys(content.rows, keyPrefix, content.keyFormat);
}

} // namespace md::models
