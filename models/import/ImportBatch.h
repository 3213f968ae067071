// The import wizard's batch: the source (a file's bytes or pasted text), how
// to read it (encoding, format, CSV separator and column mapping) and the
// rows read, as a table to check and fix. Reading runs on a worker thread
// (a large file must not freeze the window); `ready` says it is done, and a
// newer read supersedes an older one still running. Column 0 includes or excludes a
// row; CSV cells and JSON bodies are edited in place and checked again at
// once; bad cells carry their message (background and tooltip) and the last
// column says what is wrong with the row. The checks across rows (one
// customer on two rows, a plan the workspace lacks) are ImportChecks'.
#pragma once

#include "models/import/ImportChecks.h"
#include "models/import/ImportSource.h"

#include <QAbstractTableModel>
#include <QHash>

namespace md::models {

class ImportBatch final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportBatch)

public:
    // True for an included row that cannot be imported as it stands.
    static constexpr int ProblemRole = Qt::UserRole + 1;
    static constexpr int IncludeColumn = 0;
    static constexpr int LineColumn = 1;

    explicit ImportBatch(QObject *parent = nullptr);

    // `path` is empty for pasted text; the format and separator are guessed.
    void setSource(const QString &path, const QByteArray &data);
    const QString &sourcePath() const { return m_path; }
    const QByteArray &sourceData() const { return m_data; }
    // The source's SHA-256 (hex), made with the rows off the GUI thread.
    const QByteArray &sourceHash() const { return m_sourceHash; }
    void setEncoding(TextEncoding encoding);
    TextEncoding encoding() const { return m_encoding; }
    void setFormat(ImportFormat format);
    ImportFormat format() const { return m_format; }
    void setSeparator(QChar separator);
    QChar separator() const { return m_separator; }
    // CSV: the header record; its columns as the mapping guessed them at first.
    const QStringList &header() const { return m_header; }
    void setMapping(const CsvMapping &mapping);
    const CsvMapping &mapping() const { return m_mapping; }

    // The first rows as read, a header first (CSV: the file's; JSON: line,
    // customer, body), for the source step's preview.
    QList<QStringList> preview(int records) const;
    // Reads every row with the settings, in the background; edits and
    // exclusions start afresh.
    void read();
    bool isReading() const { return m_reading; }

    int includedCount() const;
    int problemCount() const; // included rows that are invalid or share a customer
    // The workspace's plan ids: from then on, rows naming another plan are
    // flagged (a warning; the dry run would refuse them), row by row.
    void setKnownPlans(const QStringList &plans);
    bool knowsPlans() const { return m_checks.knowsPlans(); }
    int unknownPlanCount() const { return m_checks.unknownPlanCount(); }
    void excludeProblems();
    void includeAll();

    // What would be imported: included, valid rows in source order.
    struct Item
    {
        int line = 0;
        api::ImportCustomerRequest request;
    };
    QList<Item> items() const;
    // A CSV column's distinct texts (trimmed, empty left out) and how many rows hold each.
    QMap<QString, int> columnValues(int csvColumn) const;
    const ImportRow &row(int index) const { return m_rows.at(index); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

Q_SIGNALS:
    // Rows were included, excluded, fixed or read again.
    void countsChanged();
    void readingStarted();
    // The rows of the latest read are in.
    void ready();

private:
    int problemColumn() const { return columnCount() - 1; }
    // The CSV column of a table column, or -1.
    int csvColumn(int column) const;
    bool hasProblem(int row) const;
    QString problem(int row) const;
    void setIncluded(int row, bool included);
    // The checks across rows again; with `notify`, says which rows changed.
    void recheck(bool notify);

    QString m_path;
    QByteArray m_data;
    QByteArray m_sourceHash;
    TextEncoding m_encoding = TextEncoding::Automatic;
    ImportFormat m_format = ImportFormat::Csv;
    ImportFormat m_shownFormat = ImportFormat::Csv; // of the rows read last
    QChar m_separator = u',';
    QStringList m_header;
    CsvMapping m_mapping;
    QList<ImportRow> m_rows;
    ImportChecks m_checks;
    bool m_reading = false;
    quint64 m_generation = 0;
};

} // namespace md::models
