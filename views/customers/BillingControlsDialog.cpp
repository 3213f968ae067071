#include "views/customers/BillingControlsDialog.h"

#include "models/common/FieldWords.h"
#include "models/customers/ControlsSource.h"
#include "views/common/ChangeReview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

namespace {

QTableWidget *table(const QStringList &headers, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    return t;
}

QString text(const QTableWidget *t, int row, int column)
{
    const QTableWidgetItem *item = t->item(row, column);
    return item ? item->text() : QString();
}

bool checked(const QTableWidget *t, int row, int column)
{
    const QTableWidgetItem *item = t->item(row, column);
    return item && item->checkState() == Qt::Checked;
}

QString word(const QTableWidget *t, int row, int column)
{
    // A row being added has its words' box only once it is complete.
    const auto *box = qobject_cast<const QComboBox *>(t->cellWidget(row, column));
    return box ? box->currentData().toString() : QString();
}

} // namespace

BillingControlsDialog::BillingControlsDialog(models::ControlsSource *controls,
                                             const api::BillingControlsAnswer &now, QWidget *parent)
    : FormDialog(parent)
    , m_controls(controls)
    , m_before(now)
    , m_tabs(new QTabWidget(this))
    , m_usage(table({tr("Feature"), tr("Limit"), tr("Per"), tr("Counted from"), tr("On")}, this))
    , m_spend(table({tr("Feature (empty: all)"), tr("Overage limit"), tr("Measured as"), tr("On")},
                    this))
    , m_alerts(table({tr("Feature (empty: all)"), tr("When"), tr("Threshold"), tr("Now"),
                      tr("Name"), tr("On")},
                     this))
    , m_overage(table({tr("Feature"), tr("Overage allowed")}, this))
    , m_warnings(new QLabel(this))
{
    setWindowTitle(now.entityId
                       ? tr("Billing controls of %1, entity %2").arg(now.customerId, *now.entityId)
                       : tr("Billing controls of %1").arg(now.customerId));
    resize(860, 460);
    const models::BillingControlsForm form = models::BillingControlsForm::from(now.billingControls);
    for (const auto &limit : form.usageLimits)
        addUsageLimit(limit);
    for (const auto &limit : form.spendLimits)
        addSpendLimit(limit);
    for (const auto &alert : form.usageAlerts)
        addUsageAlert(alert);
    for (const auto &entry : form.overageAllowed)
        addOverage(entry);
    m_tabs->addTab(m_usage, tr("&Usage limits"));
    m_tabs->addTab(m_spend, tr("S&pend limits"));
    m_tabs->addTab(m_alerts, tr("A&lerts"));
    m_tabs->addTab(m_overage, tr("&Overage"));
    auto *explanation = new QLabel(
        tr("Usage limits cap a feature's usage per interval: a capped call is cut to what is "
           "left, and refused once nothing is. Spend limits cap how far an overflowing call may "
           "take a balance below zero. Alerts are recorded when usage crosses their threshold. "
           "Overage allowed overrides the plan for overflowing calls."),
        this);
    explanation->setWordWrap(true);
    auto *add = new QPushButton(tr("&Add"), this);
    auto *remove = new QPushButton(tr("Re&move"), this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    auto *edit = new QWidget(this);
    auto *layout = new QVBoxLayout(edit);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(explanation);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_warnings);
    layout->addLayout(buttons);
    setForm(edit);
    m_alerts->horizontalHeaderItem(AlertNow)->setToolTip(
        tr("What the alert watches now, across the balances its calls draw on"));
    m_warnings->setObjectName(QStringLiteral("alertWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setStyleSheet(QStringLiteral("color:#b26a00"));
    m_warnings->hide();
    // What the alerts watch now: an alert already past its threshold cannot fire.
    m_controls->rows({now.customerId, now.entityId}, this)
        .then(this, [this, entity = now.entityId](const api::Result<QList<api::BalanceRow>> &rows) {
            if (!rows) {
                m_warnings->setText(
                    tr("The balances could not be read, so the alerts are not compared with "
                       "them: %1")
                        .arg(rows.error().message));
                m_warnings->show();
                return;
            }
            m_standing = models::BillingControlsEdit::standing(rows.value(), entity);
            check();
        });

    connect(add, &QPushButton::clicked, this, &BillingControlsDialog::addRow);
    connect(remove, &QPushButton::clicked, this, [this] {
        auto *current = static_cast<QTableWidget *>(m_tabs->currentWidget());
        if (current->currentRow() >= 0)
            current->removeRow(current->currentRow());
        check();
    });
    for (QTableWidget *t : {m_usage, m_spend, m_alerts, m_overage})
        connect(t, &QTableWidget::itemChanged, this, &BillingControlsDialog::check);
    check();
}

void BillingControlsDialog::addRow()
{
    auto *current = static_cast<QTableWidget *>(m_tabs->currentWidget());
    if (current == m_usage)
        addUsageLimit({});
    else if (current == m_spend)
        addSpendLimit({});
    else if (current == m_alerts)
        addUsageAlert({});
    else
        addOverage({});
    current->setCurrentCell(current->rowCount() - 1, 0);
    current->editItem(current->currentItem());
    check();
}

namespace {

// A new row: text cells, then a check box in the last column.
int newRow(QTableWidget *t, const QStringList &texts, bool on)
{
    const QSignalBlocker quiet(t);
    const int row = t->rowCount();
    t->insertRow(row);
    for (int c = 0; c < texts.size(); ++c)
        t->setItem(row, c, new QTableWidgetItem(texts.at(c)));
    auto *box = new QTableWidgetItem;
    box->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    box->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    t->setItem(row, t->columnCount() - 1, box);
    return row;
}

} // namespace

void BillingControlsDialog::addUsageLimit(const models::BillingControlsForm::UsageLimit &limit)
{
    const int row = newRow(m_usage, {limit.featureId, limit.limit}, limit.enabled);
    auto *interval = new QComboBox(m_usage);
    for (const auto &[word, label] : {std::pair{u"day"_s, tr("day")},
                                      {u"week"_s, tr("week")},
                                      {u"month"_s, tr("month")},
                                      {u"year"_s, tr("year")}})
        interval->addItem(label, word);
    interval->setCurrentIndex(std::max(0, interval->findData(limit.interval)));
    auto *anchor = new QComboBox(m_usage);
    anchor->addItem(tr("the billing cycle"), u"billing_cycle"_s);
    anchor->addItem(tr("the calendar (UTC)"), u"utc"_s);
    anchor->setCurrentIndex(std::max(0, anchor->findData(limit.anchor)));
    m_usage->setCellWidget(row, 2, interval);
    m_usage->setCellWidget(row, 3, anchor);
    for (QComboBox *combo : {interval, anchor})
        connect(combo, &QComboBox::currentIndexChanged, this, &BillingControlsDialog::check);
}

void BillingControlsDialog::addSpendLimit(const models::BillingControlsForm::SpendLimit &limit)
{
    const int row = newRow(m_spend, {limit.featureId, limit.overageLimit}, limit.enabled);
    auto *type = new QComboBox(m_spend);
    type->addItem(tr("units"), u"absolute"_s);
    type->addItem(tr("% of the included allowance"), u"usage_percentage"_s);
    type->setCurrentIndex(std::max(0, type->findData(limit.limitType)));
    m_spend->setCellWidget(row, 2, type);
    connect(type, &QComboBox::currentIndexChanged, this, &BillingControlsDialog::check);
}

void BillingControlsDialog::addUsageAlert(const models::BillingControlsForm::UsageAlert &alert)
{
    const int row =
        newRow(m_alerts, {alert.featureId, QString(), alert.threshold, QString(), alert.name},
               alert.enabled);
    auto *type = new QComboBox(m_alerts);
    type->addItem(tr("usage reaches (units)"), u"usage"_s);
    type->addItem(tr("usage reaches (%)"), u"usage_percentage"_s);
    type->addItem(tr("remaining falls to (units)"), u"remaining"_s);
    type->addItem(tr("remaining falls to (%)"), u"remaining_percentage"_s);
    type->setCurrentIndex(std::max(0, type->findData(alert.thresholdType)));
    m_alerts->setCellWidget(row, 1, type);
    m_alerts->item(row, AlertNow)->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    connect(type, &QComboBox::currentIndexChanged, this, &BillingControlsDialog::check);
}

void BillingControlsDialog::addOverage(const models::BillingControlsForm::OverageAllowed &entry)
{
    newRow(m_overage, {entry.featureId}, entry.allowed);
}

models::BillingControlsForm BillingControlsDialog::form() const
{
    models::BillingControlsForm form;
    for (int r = 0; r < m_usage->rowCount(); ++r)
        form.usageLimits.append({text(m_usage, r, 0), text(m_usage, r, 1), word(m_usage, r, 2),
                                 word(m_usage, r, 3), checked(m_usage, r, 4)});
    for (int r = 0; r < m_spend->rowCount(); ++r)
        form.spendLimits.append({text(m_spend, r, 0), word(m_spend, r, 2), text(m_spend, r, 1),
                                 checked(m_spend, r, 3)});
    for (int r = 0; r < m_alerts->rowCount(); ++r)
        form.usageAlerts.append({text(m_alerts, r, AlertFeature), word(m_alerts, r, AlertWhen),
                                 text(m_alerts, r, AlertThreshold), text(m_alerts, r, AlertName),
                                 checked(m_alerts, r, AlertOn)});
    for (int r = 0; r < m_overage->rowCount(); ++r)
        form.overageAllowed.append({text(m_overage, r, 0), checked(m_overage, r, 1)});
    return form;
}

QString BillingControlsDialog::changes(QList<models::FieldChange> *changes)
{
    const models::BillingControlsForm typed = form();
    showStanding(typed);
    auto request = models::BillingControlsEdit::request(m_before, typed);
    m_request.reset();
    if (!request)
        return models::FieldWords::sentence(request.error());
    m_request = request.value();
    *changes = models::BillingControlsEdit::changes(m_before.billingControls,
                                                    request.value().billingControls);
    return {};
}

void BillingControlsDialog::showStanding(const models::BillingControlsForm &form)
{
    if (!m_standing)
        return;
    QStringList warnings;
    const QSignalBlocker quiet(m_alerts); // not an edit: no check() again
    for (int r = 0; r < form.usageAlerts.size(); ++r) {
        const auto &alert = form.usageAlerts.at(r);
        m_alerts->item(r, AlertNow)
            ->setText(models::BillingControlsEdit::now(alert, *m_standing, locale()));
        warnings += models::BillingControlsEdit::warnings(r, alert, *m_standing, locale());
    }
    m_warnings->setText(warnings.join(u'\n'));
    m_warnings->setVisible(!warnings.isEmpty());
}

void BillingControlsDialog::reviewing()
{
    if (m_standing)
        review()->setNote(m_warnings->text());
}

void BillingControlsDialog::submit()
{
    if (!m_request)
        return;
    m_controls->save(*m_request)
        .then(this, [this](const api::Result<api::BillingControlsAnswer> &saved) {
            if (!saved) {
                saveFailed(saved.error());
                return;
            }
            Q_EMIT this->saved(saved.value());
            accept();
        });
}

} // namespace md::views
