// The import wizard's source: a batch of billing.import bodies read from
// JSON Lines (one body per line), a JSON array of bodies, or CSV through a
// column mapping (docs/import-formats.md). Every row is checked locally and
// keeps its problems beside it (the cell, the JSON path), so the wizard can
// show them, let them be fixed in place, or exclude the row.
#pragma once

#include "models/import/CsvMapping.h"
#include "services/api/ImportCustomer.h"
#include "services/api/Result.h"

#include <QCoreApplication>
#include <QMap>
#include <QStringList>

namespace md::models {

enum class ImportFormat { JsonLines, JsonArray, Csv };
enum class TextEncoding { Automatic, Utf8, Latin1 };

struct ImportRow
{
    int line = 0;        // 1-based line of the source (CSV: the record's first line)
    QStringList cells;   // CSV only: the record as read, to fix in place
    api::JsonValue body; // JSON: the body as read (numbers exact)
    QString text;        // JSON: the line or element as text, to fix in place
    std::optional<api::ImportCustomerRequest> request; // when valid
    QMap<int, QString> cellErrors;                     // CSV column → what is wrong
    QString error; // what is wrong, in words naming the field (FieldWords)
    bool included = true;

    bool isValid() const { return request.has_value(); }
};

class ImportSource final
{
    Q_DECLARE_TR_FUNCTIONS(ImportSource)

public:
    // A source file's bytes; the error says whether nothing is at `path`,
    // something that is not a file (a folder), or a file that cannot be read.
    static api::Result<QByteArray> readFile(const QString &path);
    // From the file name, else the first character that is not a space.
    static ImportFormat detect(const QString &fileName, const QByteArray &data);
    // Bytes to text (a BOM is dropped). Automatic: UTF-8, or Latin-1 when
    // the bytes are not valid UTF-8.
    static QString decode(const QByteArray &data, TextEncoding encoding = TextEncoding::Automatic);

    // CSV records (RFC 4180: quotes, doubled quotes, line breaks inside
    // quotes); each record's first line number in `lines`.
    static QList<QStringList> parseCsv(const QString &text, QChar separator,
                                       QList<int> *lines = nullptr);
    // The separator a CSV header most likely uses: ',', ';' or tab.
    static QChar guessSeparator(const QString &text);

    // JSON Lines or a JSON array: one row per body; a line or element that is
    // not a valid body keeps the decoder's message.
    static QList<ImportRow> readJson(const QString &text, ImportFormat format);
    // The same, as JSON values only (body, text and line): a line or element
    // that is not a JSON object keeps why. `whatItHolds` names the file's
    // elements in the error for a file that is no array.
    static QList<ImportRow> readJsonValues(const QString &text, ImportFormat format,
                                           const QString &whatItHolds);
    // One body as text (a fixed JSON row), keeping the row's line.
    static void revalidate(ImportRow &row, const QString &text);
    // CSV with a header line, through `mapping`.
    static QList<ImportRow> readCsv(const QString &text, QChar separator,
                                    const CsvMapping &mapping);
    // Rebuilds a CSV row's request from its (edited) cells.
    static void revalidate(ImportRow &row, const CsvMapping &mapping);
};

} // namespace md::models
