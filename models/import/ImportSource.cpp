#include "models/import/ImportSource.h"

#include "models/common/FieldWords.h"
#include "services/api/WireCodec.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

ImportRow fromBody(int line, const api::JsonValue &value)
{
    ImportRow row;
    row.line = line;
    row.body = value;
    row.text = QString::fromUtf8(value.toJson());
    auto request = api::decode<api::ImportCustomerRequest>(value);
    if (request)
        row.request = request.value();
    else
        row.error = FieldWords::sentence(request.error());
    return row;
}

} // namespace

api::Result<QByteArray> ImportSource::readFile(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return api::ApiError::local(u"file_missing"_s, tr("There is no file at %1.").arg(path));
    // A folder, or a device that could block the window while it is read.
    if (!info.isFile())
        return api::ApiError::local(u"file_unreadable"_s, tr("%1 is not a file.").arg(path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return api::ApiError::local(u"file_unreadable"_s,
                                    tr("Cannot read %1: %2").arg(path, file.errorString()));
    return file.readAll();
}

ImportFormat ImportSource::detect(const QString &fileName, const QByteArray &data)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix == "csv"_L1 || suffix == "tsv"_L1 || suffix == "txt"_L1)
        return ImportFormat::Csv;
    if (suffix == "jsonl"_L1 || suffix == "ndjson"_L1)
        return ImportFormat::JsonLines;
    for (const char c : data) {
        if (c == '[')
            return ImportFormat::JsonArray;
        if (c == '{')
            return ImportFormat::JsonLines;
        if (!QChar::isSpace(uchar(c)) && c != '\xef' && c != '\xbb' && c != '\xbf')
            return ImportFormat::Csv;
    }
    return ImportFormat::Csv;
}

QString ImportSource::decode(const QByteArray &data, TextEncoding encoding)
{
    QString text;
    if (encoding == TextEncoding::Latin1) {
        text = QString::fromLatin1(data);
    } else {
        QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        text = utf8(data);
        if (utf8.hasError() && encoding == TextEncoding::Automatic)
            text = QString::fromLatin1(data);
    }
    if (text.startsWith(QChar::ByteOrderMark))
        text.remove(0, 1);
    return text;
}

QChar ImportSource::guessSeparator(const QString &text)
{
    const QString header = text.section(u'\n', 0, 0);
    QChar best = u',';
    qsizetype most = 0;
    for (const QChar candidate : {u',', u';', u'\t'}) {
        if (const qsizetype n = header.count(candidate); n > most) {
            most = n;
            best = candidate;
        }
    }
    return best;
}

QList<QStringList> ImportSource::parseCsv(const QString &text, QChar separator, QList<int> *lines)
{
    QList<QStringList> records;
    QStringList record;
    QString cell;
    bool quoted = false;
    bool any = false; // the record has begun
    int line = 1;
    int recordLine = 1;
    const auto endCell = [&] {
        record.append(cell);
        cell.clear();
    };
    const auto endRecord = [&] {
        endCell();
        if (!(record.size() == 1 && record.first().isEmpty())) { // skip blank lines
            records.append(record);
            if (lines)
                lines->append(recordLine);
        }
        record.clear();
        any = false;
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (!any) {
            any = true;
            recordLine = line;
        }
        if (quoted) {
            if (c == u'"') {
                if (i + 1 < text.size() && text.at(i + 1) == u'"') {
                    cell += u'"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                if (c == u'\n')
                    ++line;
                cell += c;
            }
        } else if (c == u'"' && cell.isEmpty()) {
            quoted = true;
        } else if (c == separator) {
            endCell();
        } else if (c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n') {
            continue; // CRLF: the \n ends the record
        } else if (c == u'\n') {
            endRecord();
            ++line;
        } else {
            cell += c;
        }
    }
    if (any)
        endRecord();
    return records;
}

QList<ImportRow> ImportSource::readJsonValues(const QString &text, ImportFormat format,
                                              const QString &whatItHolds)
{
    QList<ImportRow> rows;
    const auto value = [](int line, const api::JsonValue &body) {
        ImportRow row;
        row.line = line;
        row.body = body;
        row.text = QString::fromUtf8(body.toJson());
        if (!body.isObject())
            row.error = tr("not a JSON object");
        return row;
    };
    if (format == ImportFormat::JsonArray) {
        const auto document = api::JsonValue::parse(text.toUtf8(), u"the file"_s);
        if (!document || !document.value().isArray()) {
            ImportRow row;
            row.line = 1;
            row.error = !document ? document.error().message
                                  : tr("the file is not a JSON array of %1").arg(whatItHolds);
            rows.append(row);
            return rows;
        }
        // Element positions are not kept by the parser: rows count elements.
        const api::JsonValue &array = document.value();
        for (qsizetype i = 0; i < array.size(); ++i)
            rows.append(value(int(i + 1), array.at(i)));
        return rows;
    }
    const QStringList lines = text.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const auto document = api::JsonValue::parse(line.toUtf8(), u"the line"_s);
        if (document) {
            rows.append(value(int(i + 1), document.value()));
            continue;
        }
        ImportRow row;
        row.line = int(i + 1);
        row.text = line;
        row.error = tr("not JSON: %1").arg(document.error().message);
        rows.append(row);
    }
    return rows;
}

QList<ImportRow> ImportSource::readJson(const QString &text, ImportFormat format)
{
    QList<ImportRow> rows = readJsonValues(text, format, tr("billing.import bodies"));
    for (ImportRow &row : rows)
        if (row.error.isEmpty())
            row = fromBody(row.line, row.body);
    return rows;
}

void ImportSource::revalidate(ImportRow &row, const QString &text)
{
    const int line = row.line;
    const bool included = row.included;
    const auto document = api::JsonValue::parse(text.toUtf8(), u"the line"_s);
    if (document && document.value().isObject()) {
        row = fromBody(line, document.value());
    } else {
        row = ImportRow();
        row.line = line;
        row.text = text;
        row.error =
            !document ? tr("not JSON: %1").arg(document.error().message) : tr("not a JSON object");
    }
    row.included = included;
}

QList<ImportRow> ImportSource::readCsv(const QString &text, QChar separator,
                                       const CsvMapping &mapping)
{
    QList<int> lines;
    const QList<QStringList> records = parseCsv(text, separator, &lines);
    QList<ImportRow> rows;
    for (qsizetype r = 1; r < records.size(); ++r) { // the first record is the header
        ImportRow row;
        row.line = lines.at(r);
        row.cells = records.at(r);
        revalidate(row, mapping);
        rows.append(row);
    }
    return rows;
}

void ImportSource::revalidate(ImportRow &row, const CsvMapping &mapping)
{
    row.request.reset();
    row.cellErrors.clear();
    row.error.clear();
    const auto cell = [&](int column) {
        return column >= 0 && column < row.cells.size() ? row.cells.at(column).trimmed()
                                                        : QString();
    };
    if (mapping.customerId < 0) {
        row.error = tr("map a column to the customer id");
        return;
    }
    // The body as JSON, then the wire decoder checks it like the server would.
    api::JsonValue body = api::JsonValue::object({{"customer_id"_L1, cell(mapping.customerId)}});
    api::JsonValue data = api::JsonValue::object();
    if (!cell(mapping.name).isEmpty())
        data.insert(u"name"_s, cell(mapping.name));
    if (!cell(mapping.email).isEmpty()) {
        if (!cell(mapping.email).contains(u'@'))
            row.cellErrors.insert(mapping.email, tr("not an email address"));
        data.insert(u"email"_s, cell(mapping.email));
    }
    if (data.size() > 0)
        body.insert(u"customer_data"_s, data);
    api::JsonValue processors = api::JsonValue::array();
    if (!cell(mapping.stripeId).isEmpty())
        processors.append(
            api::JsonValue::object({{"type"_L1, u"stripe"_s}, {"id"_L1, cell(mapping.stripeId)}}));
    if (!cell(mapping.revenueCatId).isEmpty())
        processors.append(api::JsonValue::object(
            {{"type"_L1, u"revenuecat"_s}, {"id"_L1, cell(mapping.revenueCatId)}}));
    if (processors.size() > 0)
        body.insert(u"processors"_s, processors);
    api::JsonValue billables = api::JsonValue::array();
    if (!cell(mapping.plan).isEmpty()) {
        api::JsonValue plan =
            api::JsonValue::object({{"plan_id"_L1, mapping.planId(cell(mapping.plan))}});
        if (!cell(mapping.status).isEmpty())
            plan.insert(u"status"_s, cell(mapping.status).toLower());
        api::JsonValue balances = api::JsonValue::array();
        for (auto it = mapping.usage.cbegin(); it != mapping.usage.cend(); ++it) {
            const QString text = cell(it.value());
            if (text.isEmpty())
                continue;
            const auto usage = api::Decimal::parse(text);
            if (!usage || usage->isNegative()) {
                row.cellErrors.insert(
                    it.value(), tr("must be a number, 0 or more, with at most %1 decimal places")
                                    .arg(api::Decimal::Scale));
                continue;
            }
            balances.append(
                api::JsonValue::object({{"feature_id"_L1, it.key()}, {"usage"_L1, *usage}}));
        }
        if (balances.size() > 0)
            plan.insert(u"balances"_s, balances);
        api::JsonValue billable = api::JsonValue::object({{"plan"_L1, plan}});
        if (!cell(mapping.stripeId).isEmpty() || cell(mapping.revenueCatId).isEmpty())
            billable.insert(u"processor"_s, u"stripe"_s);
        else
            billable.insert(u"processor"_s, u"revenuecat"_s);
        billables.append(billable);
    } else if (mapping.status >= 0 && !cell(mapping.status).isEmpty()) {
        row.cellErrors.insert(mapping.plan >= 0 ? mapping.plan : mapping.status,
                              tr("a status needs a plan"));
    }
    body.insert(u"billables"_s, billables);
    row.body = body;
    auto request = api::decode<api::ImportCustomerRequest>(body);
    if (!request) {
        // The cell the decoder's path speaks of says what is wrong with it;
        // its column names the field (the path is not said again).
        const QString path = FieldWords::path(request.error());
        const int column = path == "customer_id"_L1            ? mapping.customerId
                           : path.endsWith(".plan.status"_L1)  ? mapping.status
                           : path.endsWith(".plan.plan_id"_L1) ? mapping.plan
                                                               : -1;
        if (column >= 0)
            row.cellErrors.insert(column, FieldWords::problem(request.error()));
        else
            row.error = FieldWords::sentence(request.error());
        return;
    }
    if (row.cellErrors.isEmpty())
        row.request = request.value();
}

} // namespace md::models
