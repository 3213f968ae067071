#include "models/import/ImportBatch.h"

#include "models/import/ImportJournal.h"

#include <QColor>
#include <QtConcurrent/QtConcurrentRun>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

enum JsonColumn { CustomerColumn = 2, BodyColumn, JsonColumnCount = 5 };

// Reads on light and dark palettes alike.
QColor problemColor()
{
    return QColor(220, 50, 50, 80);
}

} // namespace

ImportBatch::ImportBatch(QObject *parent)
    : QAbstractTableModel(parent)
{}

void ImportBatch::setSource(const QString &path, const QByteArray &data)
{
    m_path = path;
    m_data = data;
    m_sourceHash.clear(); // this source's comes with its rows
    m_encoding = TextEncoding::Automatic;
    m_format = ImportSource::detect(path, data);
    // The first line is enough to guess the separator.
    m_separator = ImportSource::guessSeparator(
        ImportSource::decode(data.left(data.indexOf('\n')), m_encoding));
    m_header.clear();
    read();
}

void ImportBatch::setEncoding(TextEncoding encoding)
{
    m_encoding = encoding;
    read();
}

void ImportBatch::setFormat(ImportFormat format)
{
    m_format = format;
    read();
}

void ImportBatch::setSeparator(QChar separator)
{
    m_separator = separator;
    read();
}

void ImportBatch::setMapping(const CsvMapping &mapping)
{
    m_mapping = mapping;
    read();
}

QList<QStringList> ImportBatch::preview(int records) const
{
    const bool csv = m_shownFormat == ImportFormat::Csv;
    QList<QStringList> table{csv ? m_header : QStringList{tr("Line"), tr("Customer"), tr("Body")}};
    for (const ImportRow &row : m_rows.mid(0, records))
        table.append(csv ? row.cells
                         : QStringList{QString::number(row.line),
                                       row.request ? row.request->customerId : QString(),
                                       row.text.isEmpty() ? row.error : row.text});
    return table;
}

namespace {

struct Read
{
    ImportFormat format;
    QStringList header;
    CsvMapping mapping;
    QList<ImportRow> rows;
    QByteArray hash; // the source's, which its journal names
};

} // namespace

void ImportBatch::read()
{
    const quint64 generation = ++m_generation;
    m_reading = true;
    Q_EMIT readingStarted();
    QtConcurrent::run([data = m_data, encoding = m_encoding, format = m_format,
                       separator = m_separator, header = m_header, mapping = m_mapping] {
        Read read{format, header, mapping, {}, ImportJournal::hash(data)};
        const QString all = ImportSource::decode(data, encoding);
        if (format != ImportFormat::Csv) {
            read.header.clear();
            read.rows = ImportSource::readJson(all, format);
            return read;
        }
        QString firstLine = all.section(u'\n', 0, 0);
        if (firstLine.endsWith(u'\r'))
            firstLine.chop(1);
        const QStringList newHeader = ImportSource::parseCsv(firstLine, separator).value(0);
        if (newHeader != header) { // another file or separator: guess again
            read.header = newHeader;
            read.mapping = CsvMapping::guess(newHeader);
        }
        read.rows = ImportSource::readCsv(all, separator, read.mapping);
        return read;
    }).then(this, [this, generation](const Read &read) {
        if (generation != m_generation)
            return; // a newer read is on its way
        beginResetModel();
        m_shownFormat = read.format;
        m_header = read.header;
        m_mapping = read.mapping;
        m_rows = read.rows;
        m_sourceHash = read.hash;
        recheck(false);
        endResetModel();
        m_reading = false;
        Q_EMIT countsChanged();
        Q_EMIT ready();
    });
}

int ImportBatch::includedCount() const
{
    return int(std::count_if(m_rows.cbegin(), m_rows.cend(),
                             [](const ImportRow &row) { return row.included; }));
}

int ImportBatch::problemCount() const
{
    int problems = 0;
    for (int r = 0; r < m_rows.size(); ++r)
        problems += m_rows.at(r).included && hasProblem(r);
    return problems;
}

bool ImportBatch::hasProblem(int row) const
{
    return !m_rows.at(row).isValid() || m_checks.sharesCustomer(row);
}

void ImportBatch::setKnownPlans(const QStringList &plans)
{
    m_checks.setKnownPlans(plans);
    recheck(true);
    Q_EMIT countsChanged();
}

void ImportBatch::excludeProblems()
{
    // Every row of a customer on several lines: which one is right is the user's to say.
    QList<int> problems;
    for (int r = 0; r < m_rows.size(); ++r)
        if (hasProblem(r))
            problems.append(r);
    for (const int r : std::as_const(problems))
        setIncluded(r, false);
    recheck(true);
    Q_EMIT countsChanged();
}

void ImportBatch::includeAll()
{
    for (int r = 0; r < m_rows.size(); ++r)
        setIncluded(r, true);
    recheck(true);
    Q_EMIT countsChanged();
}

void ImportBatch::recheck(bool notify)
{
    const QList<int> changed = m_checks.update(m_rows);
    if (notify)
        for (const int r : changed)
            Q_EMIT dataChanged(index(r, 0), index(r, columnCount() - 1));
}

void ImportBatch::setIncluded(int row, bool included)
{
    if (m_rows.at(row).included == included)
        return;
    m_rows[row].included = included;
    Q_EMIT dataChanged(index(row, 0), index(row, columnCount() - 1));
}

QList<ImportBatch::Item> ImportBatch::items() const
{
    QList<Item> items;
    for (const ImportRow &row : m_rows)
        if (row.included && row.request)
            items.append({row.line, *row.request});
    return items;
}

QMap<QString, int> ImportBatch::columnValues(int csvColumn) const
{
    QMap<QString, int> values;
    for (const ImportRow &row : m_rows)
        if (const QString text = row.cells.value(csvColumn).trimmed(); !text.isEmpty())
            ++values[text];
    return values;
}

int ImportBatch::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ImportBatch::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return m_shownFormat == ImportFormat::Csv ? int(m_header.size()) + 3 : JsonColumnCount;
}

int ImportBatch::csvColumn(int column) const
{
    return m_shownFormat == ImportFormat::Csv && column > LineColumn && column < problemColumn()
               ? column - 2
               : -1;
}

QString ImportBatch::problem(int r) const
{
    const ImportRow &row = m_rows.at(r);
    QStringList problems;
    if (!row.error.isEmpty())
        problems.append(row.error);
    for (auto it = row.cellErrors.cbegin(); it != row.cellErrors.cend(); ++it)
        problems.append(u"%1: %2"_s.arg(m_header.value(it.key()), it.value()));
    for (const QString &more : {m_checks.duplicateProblem(r, row), m_checks.planWarning(r)})
        if (!more.isEmpty())
            problems.append(more);
    return problems.join(u"; "_s);
}

QVariant ImportBatch::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ImportRow &row = m_rows.at(index.row());
    const int column = index.column();
    if (role == ProblemRole)
        return row.included && hasProblem(index.row());
    if (column == IncludeColumn)
        return role == Qt::CheckStateRole ? QVariant(row.included ? Qt::Checked : Qt::Unchecked)
                                          : QVariant();
    if (role == Qt::ForegroundRole && !row.included)
        return QColor(Qt::gray);
    const int cell = csvColumn(column);
    const bool customerCell = m_shownFormat == ImportFormat::Csv
                                  ? cell >= 0 && cell == m_mapping.customerId
                                  : column == CustomerColumn;
    // A plan the workspace lacks is flagged on the plan cell (CSV) or the body (JSON).
    const bool planCell = m_shownFormat == ImportFormat::Csv ? cell >= 0 && cell == m_mapping.plan
                                                             : column == BodyColumn;
    const QString cross = customerCell && m_checks.sharesCustomer(index.row())
                              ? m_checks.duplicateProblem(index.row(), row)
                          : planCell ? m_checks.planWarning(index.row())
                                     : QString();
    const bool bad =
        !cross.isEmpty() ||
        (cell >= 0 ? row.cellErrors.contains(cell)
                   : column == problemColumn() &&
                         (hasProblem(index.row()) || m_checks.hasUnknownPlan(index.row())));
    if (role == Qt::BackgroundRole)
        return bad && row.included ? QVariant(problemColor()) : QVariant();
    if (role == Qt::ToolTipRole) {
        if (!cross.isEmpty())
            return cross;
        return cell >= 0 ? QVariant(row.cellErrors.value(cell)) : QVariant();
    }
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    if (column == LineColumn)
        return row.line;
    if (column == problemColumn())
        return problem(index.row());
    if (cell >= 0)
        return row.cells.value(cell);
    if (column == CustomerColumn)
        return ImportChecks::customerOf(row);
    return row.text;
}

QVariant ImportBatch::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == IncludeColumn)
        return tr("Import");
    if (section == LineColumn)
        return tr("Line");
    if (section == problemColumn())
        return tr("Problem");
    if (const int cell = csvColumn(section); cell >= 0)
        return m_header.value(cell);
    return section == CustomerColumn ? tr("Customer") : tr("Body");
}

Qt::ItemFlags ImportBatch::flags(const QModelIndex &index) const
{
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (!index.isValid())
        return flags;
    if (index.column() == IncludeColumn)
        flags |= Qt::ItemIsUserCheckable;
    else if (csvColumn(index.column()) >= 0 ||
             (m_shownFormat != ImportFormat::Csv && index.column() == BodyColumn))
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool ImportBatch::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const int r = index.row();
    if (index.column() == IncludeColumn && role == Qt::CheckStateRole) {
        setIncluded(r, value.value<Qt::CheckState>() == Qt::Checked);
        recheck(true);
        Q_EMIT countsChanged();
        return true;
    }
    if (role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable))
        return false;
    ImportRow &row = m_rows[r];
    if (const int cell = csvColumn(index.column()); cell >= 0) {
        while (row.cells.size() <= cell)
            row.cells.append(QString());
        row.cells[cell] = value.toString();
        ImportSource::revalidate(row, m_mapping);
    } else {
        ImportSource::revalidate(row, value.toString());
    }
    Q_EMIT dataChanged(this->index(r, 0), this->index(r, columnCount() - 1));
    recheck(true);
    Q_EMIT countsChanged();
    return true;
}

} // namespace md::models
