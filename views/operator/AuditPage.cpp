#include "views/operator/AuditPage.h"

#include "models/common/PagedExport.h"
#include "models/operator/AuditLogModel.h"
#include "views/common/ExportFileDialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;
using models::AuditLogModel;

namespace {

// The side's JSON with the lines of changed fields marked: a field's line
// and the lines nested under it (sideText indents by two spaces a level).
QString markedSide(const api::JsonValue &side, const QStringList &changed, int depth,
                   const QColor &mark)
{
    const QString indent(2 * depth, u' ');
    const QRegularExpression field(u"^"_s + indent + uR"re("([^"]+)":)re"_s);
    QString html = u"<pre>"_s;
    bool marking = false;
    for (const QString &line : AuditLogModel::sideText(side).split(u'\n')) {
        if (const auto match = field.match(line); match.hasMatch())
            marking = changed.contains(match.captured(1));
        else if (!line.startsWith(indent + u' '))
            marking = false; // back out of the field
        html += marking ? u"<span style=\"background-color:%1\">%2</span>\n"_s.arg(
                              mark.name(QColor::HexArgb), line.toHtmlEscaped())
                        : line.toHtmlEscaped() + u'\n';
    }
    return html + u"</pre>"_s;
}

} // namespace

AuditPage::AuditPage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_model(new AuditLogModel(backend, this))
    , m_resource(new QComboBox(this))
    , m_resourceId(new QLineEdit(this))
    , m_actor(new QLineEdit(this))
    , m_period(new QComboBox(this))
    , m_export(new QPushButton(tr("E&xport…"), this))
    , m_exporter(new models::PagedExport(
          m_model, AuditLogModel::columns(),
          [model = m_model](int row) { return AuditLogModel::cells(model->entry(row)); },
          tr("Audit log"), this))
    , m_table(new QTableView(this))
    , m_changed(new QLabel(this))
    , m_before(new QTextBrowser(this))
    , m_after(new QTextBrowser(this))
    , m_debounce(new QTimer(this))
{
    m_resource->setObjectName(u"auditResource"_s);
    m_resource->addItem(tr("Everything"));
    for (const auto &[type, name] :
         {std::pair{u"product"_s, tr("Products")}, std::pair{u"reward"_s, tr("Rewards")},
          std::pair{u"customer"_s, tr("Customers")},
          std::pair{u"organization"_s, tr("Organizations")},
          std::pair{u"billing_controls"_s, tr("Billing controls")},
          std::pair{u"api_key"_s, tr("API keys")}})
        m_resource->addItem(name, type);
    m_resourceId->setObjectName(u"auditResourceId"_s);
    m_resourceId->setPlaceholderText(tr("any id"));
    m_resourceId->setEnabled(false);
    m_actor->setObjectName(u"auditActor"_s);
    m_actor->setPlaceholderText(tr("key id or name"));
    m_actor->setClearButtonEnabled(true);
    m_period->setObjectName(u"auditPeriod"_s);
    m_period->addItem(tr("Any time"), 0);
    m_period->addItem(tr("Last 24 hours"), 1);
    m_period->addItem(tr("Last 7 days"), 7);
    m_period->addItem(tr("Last 30 days"), 30);

    auto *filters = new QHBoxLayout;
    const auto labelled = [&](const QString &text, QWidget *field) {
        auto *label = new QLabel(text, this);
        label->setBuddy(field);
        filters->addWidget(label);
        filters->addWidget(field);
    };
    labelled(tr("&Resource"), m_resource);
    labelled(tr("I&d"), m_resourceId);
    labelled(tr("&Who"), m_actor);
    labelled(tr("Whe&n"), m_period);
    filters->addStretch();
    filters->addWidget(m_export);

    m_table->setObjectName(u"auditTable"_s);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    m_changed->setObjectName(u"auditChanged"_s);
    m_changed->setWordWrap(true);
    m_before->setObjectName(u"auditBefore"_s);
    m_after->setObjectName(u"auditAfter"_s);
    auto *sides = new QSplitter(Qt::Horizontal, this);
    for (const auto &[title, browser] :
         {std::pair{tr("Before"), m_before}, std::pair{tr("After"), m_after}}) {
        auto *panel = new QWidget(sides);
        auto *column = new QVBoxLayout(panel);
        column->setContentsMargins(0, 0, 0, 0);
        column->addWidget(new QLabel(u"<b>%1</b>"_s.arg(title), panel));
        column->addWidget(browser);
        browser->setPlaceholderText(tr("Select an entry to see the resource before and after."));
        sides->addWidget(panel);
    }
    auto *detail = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_changed);
    detailLayout->addWidget(sides, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(detail);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addLayout(filters);
    layout->addWidget(split, 1);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &AuditPage::applyFilter);
    for (QLineEdit *edit : {m_resourceId, m_actor})
        connect(edit, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_resource, &QComboBox::currentIndexChanged, this, [this] {
        m_resourceId->setEnabled(m_resource->currentIndex() > 0);
        applyFilter();
    });
    connect(m_period, &QComboBox::currentIndexChanged, this, &AuditPage::applyFilter);
    connect(m_export, &QPushButton::clicked, this, &AuditPage::chooseExport);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    m_reselect.clear(); // chosen: no need to look for the old one
                showEntry();
            });
    connect(m_model, &AuditLogModel::loadingChanged, this, &AuditPage::updateState);
    connect(m_model, &AuditLogModel::failed, this, &AuditPage::updateState);
    connect(m_exporter, &models::PagedExport::finished, this, [this](int rows) {
        Q_EMIT statusMessage(tr("Exported %Ln audit entry(s).", nullptr, rows));
        Q_EMIT exported(rows);
    });
    connect(m_exporter, &models::PagedExport::failed, this, [this](const QString &message) {
        QMessageBox::warning(this, tr("Export failed"), message);
    });
    // A refresh or a new filter drops the rows: the entry that was current
    // is chosen again, and scrolled to, when its page comes back.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        const QModelIndex current = m_table->currentIndex();
        if (current.isValid())
            m_reselect = m_model->entry(current.row()).id;
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &AuditPage::showEntry);
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first, int last) {
                if (first == 0)
                    m_table->resizeColumnsToContents(); // fit the first page, then stay put
                for (int row = first; row <= last && !m_reselect.isEmpty(); ++row) {
                    if (m_model->entry(row).id == m_reselect) {
                        m_reselect.clear();
                        m_table->doItemsLayout(); // the scroll bar counts the rows just in
                        m_table->setCurrentIndex(m_model->index(row, 0));
                    }
                }
            });
}

void AuditPage::refresh()
{
    m_model->refresh();
}

void AuditPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // Whatever was written while another page was shown appears without F5.
    m_model->refreshIfStale();
}

void AuditPage::applyFilter()
{
    api::AuditLogRequest filter;
    if (m_resource->currentIndex() > 0) {
        filter.resourceType = m_resource->currentData().toString();
        if (!m_resourceId->text().trimmed().isEmpty())
            filter.resourceId = m_resourceId->text().trimmed();
    }
    if (!m_actor->text().trimmed().isEmpty())
        filter.actor = m_actor->text().trimmed();
    if (const int days = m_period->currentData().toInt(); days > 0)
        filter.since = QDateTime::currentMSecsSinceEpoch() - qint64(days) * 86'400'000;
    if (filter != m_model->filter())
        m_model->setFilter(filter);
}

void AuditPage::showEntry()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid()) {
        m_changed->clear();
        m_before->clear();
        m_after->clear();
        return;
    }
    const api::AuditEntry &entry = m_model->entry(current.row());
    const QStringList changed = AuditLogModel::changedFields(entry);
    m_changed->setText(tr("%1 by %2: %3 %4. Changed: %5")
                           .arg(entry.action, AuditLogModel::actorText(entry.actor),
                                entry.resourceType, entry.resourceId,
                                changed.isEmpty() ? tr("nothing") : changed.join(u", "_s)));
    QColor mark = palette().color(QPalette::Highlight);
    mark.setAlpha(70);
    const int depth = AuditLogModel::fieldDepth(entry);
    m_before->setHtml(markedSide(entry.before, changed, depth, mark));
    m_after->setHtml(markedSide(entry.after, changed, depth, mark));
}

void AuditPage::updateState()
{
    const int rows = m_model->rowCount();
    if (const auto &error = m_model->lastError(); error && !m_model->isLoading())
        Q_EMIT statusMessage(tr("The audit log could not be loaded: %1").arg(error->message));
    else if (m_model->isLoading())
        Q_EMIT statusMessage(tr("Loading the audit log… %Ln entry(s) so far", nullptr, rows));
    else if (rows == 0)
        Q_EMIT statusMessage(tr("No audit entries match. Writes appear here as they happen."));
    else
        Q_EMIT statusMessage(tr("%Ln audit entry(s)", nullptr, rows));
}

void AuditPage::chooseExport()
{
    const QString path = chooseExportFile(this, tr("Export the audit log"), tr("audit-log.csv"));
    if (path.isEmpty())
        return;
    if (auto started = exportTo(path); !started)
        QMessageBox::warning(this, tr("Export failed"), started.error().message);
}

api::Result<api::Done> AuditPage::exportTo(const QString &path)
{
    auto started = m_exporter->start(path);
    if (started)
        Q_EMIT statusMessage(tr("Exporting the audit log…"));
    return started;
}

} // namespace md::views
