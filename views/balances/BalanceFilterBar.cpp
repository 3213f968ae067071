#include "views/balances/BalanceFilterBar.h"

#include "models/balances/FilterChoices.h"
#include "views/balances/CustomerSearchField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QFileDialog>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace md::views {

using models::BalanceFilter;

namespace {
// The plan box's data for "No plan"; no plan id can start with a control character.
const QString NoPlanChoice = QStringLiteral("\x01none");
// The widest a choice is shown, in average characters.
constexpr int WidestChoice = 40;

// Adds a choice shown whole up to WidestChoice; a longer one is shortened
// in the middle (an id at its end stays readable) and whole in its tooltip.
void addChoice(QComboBox *box, const QString &text, const QString &data)
{
    const QFontMetrics metrics = box->fontMetrics();
    const QString shown =
        metrics.elidedText(text, Qt::ElideMiddle, WidestChoice * metrics.averageCharWidth());
    box->addItem(shown, data);
    if (shown != text)
        box->setItemData(box->count() - 1, text, Qt::ToolTipRole);
}
} // namespace

BalanceFilterBar::BalanceFilterBar(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_choices(new models::FilterChoices(backend, this))
    , m_customer(new CustomerSearchField(m_choices, this))
    , m_entity(new QLineEdit(this))
    , m_feature(new QComboBox(this))
    , m_plan(new QComboBox(this))
    , m_active(new QCheckBox(tr("&Active"), this))
    , m_expired(new QCheckBox(tr("E&xpired"), this))
    , m_resets(new QCheckBox(tr("Ref&ills before"), this))
    , m_resetsBefore(new QDateEdit(this))
    , m_below(new QCheckBox(tr("Remaining belo&w"), this))
    , m_belowValue(new QLineEdit(this))
    , m_belowUnit(new QComboBox(this))
    , m_viewList(new QComboBox(this))
{
    // Two rows: the boxes sized to their longest choice and the German
    // labels do not fit one row of the window's default width.
    auto *rows = new QVBoxLayout(this);
    rows->setContentsMargins(6, 6, 6, 0);
    auto *whose = new QHBoxLayout; // whose balances: customer, entity, feature, plan
    auto *how = new QHBoxLayout;   // their status, saved views and export
    rows->addLayout(whose);
    rows->addLayout(how);
    const auto label = [this](QHBoxLayout *row, const QString &text, QWidget *buddy) {
        auto *l = new QLabel(text, this);
        l->setBuddy(buddy);
        row->addWidget(l);
        row->addWidget(buddy);
    };
    m_entity->setObjectName(QStringLiteral("entityFilter"));
    m_entity->setPlaceholderText(tr("all entities"));
    m_entity->setEnabled(false);
    m_entity->setToolTip(tr("Choose a customer first: entities belong to one customer."));
    m_feature->setObjectName(QStringLiteral("featureFilter"));
    m_plan->setObjectName(QStringLiteral("planFilter"));
    m_active->setChecked(true);
    // Finance's question is "what refills this month": the first of next
    // month is where the day starts.
    m_resets->setObjectName(QStringLiteral("resetsFilter"));
    m_resets->setToolTip(tr("Only balances whose next reset comes before the start of this day"));
    m_resetsBefore->setObjectName(QStringLiteral("resetsBeforeFilter"));
    m_resetsBefore->setCalendarPopup(true);
    m_resetsBefore->setAccessibleName(tr("Refills before"));
    const QDate today = QDate::currentDate();
    m_resetsBefore->setDate(QDate(today.year(), today.month(), 1).addMonths(1));
    m_resetsBefore->setEnabled(false);
    // Who runs out: below an amount, or below a share of what was granted.
    m_below->setObjectName(QStringLiteral("belowFilter"));
    m_below->setToolTip(tr("Only balances whose remaining is below an amount, or below a "
                           "percentage of their grant (included plus prepaid)"));
    m_belowValue->setObjectName(QStringLiteral("belowValue"));
    m_belowValue->setAccessibleName(tr("Remaining below"));
    m_belowValue->setText(QStringLiteral("10"));
    m_belowValue->setMaximumWidth(m_belowValue->fontMetrics().horizontalAdvance(u'0') * 14);
    m_belowValue->setEnabled(false);
    m_belowUnit->setObjectName(QStringLiteral("belowUnit"));
    m_belowUnit->addItem(tr("% of the grant"), true);
    m_belowUnit->addItem(tr("in the feature's unit"), false);
    m_belowUnit->setEnabled(false);
    m_viewList->setObjectName(QStringLiteral("viewList"));
    // As wide as the longest choice, again as choices come (they come after the first show).
    for (QComboBox *box : {m_feature, m_plan, m_viewList})
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_viewList->setToolTip(tr("Saved views"));
    label(whose, tr("&Customer"), m_customer);
    label(whose, tr("E&ntity"), m_entity);
    label(whose, tr("&Feature"), m_feature);
    label(whose, tr("&Plan"), m_plan);
    whose->addStretch();
    how->addWidget(m_active);
    how->addWidget(m_expired);
    how->addSpacing(12);
    how->addWidget(m_resets);
    how->addWidget(m_resetsBefore);
    how->addSpacing(12);
    how->addWidget(m_below);
    how->addWidget(m_belowValue);
    how->addWidget(m_belowUnit);
    how->addStretch();
    label(how, tr("&View"), m_viewList);
    auto *viewMenu = new QToolButton(this);
    viewMenu->setText(tr("Views"));
    viewMenu->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(viewMenu);
    menu->addAction(tr("&Save current filter as view…"), this, &BalanceFilterBar::saveView);
    menu->addAction(tr("&Delete selected view"), this, [this] {
        m_views.remove(m_viewList->currentData().toString());
        refreshViewList();
    });
    menu->addSeparator();
    menu->addAction(tr("&Export views…"), this, &BalanceFilterBar::exportViews);
    menu->addAction(tr("&Import views…"), this, &BalanceFilterBar::importViews);
    viewMenu->setMenu(menu);
    how->addWidget(viewMenu);
    auto *exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setToolTip(tr("Write every balance of this filter to a CSV file"));
    how->addWidget(exportButton);
    connect(exportButton, &QPushButton::clicked, this, &BalanceFilterBar::exportRequested);

    // Typing settles for a moment before the list is asked again.
    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(debounce, &QTimer::timeout, this, &BalanceFilterBar::edited);
    connect(m_customer, &CustomerSearchField::chosen, this, [this] {
        m_entity->setEnabled(!m_customer->customerId().isEmpty());
        Q_EMIT edited();
    });
    connect(m_customer, &CustomerSearchField::statusMessage, this,
            &BalanceFilterBar::statusMessage);
    connect(m_entity, &QLineEdit::textEdited, debounce, qOverload<>(&QTimer::start));
    connect(m_feature, &QComboBox::activated, this, &BalanceFilterBar::edited);
    connect(m_plan, &QComboBox::activated, this, &BalanceFilterBar::edited);
    connect(m_active, &QCheckBox::toggled, this, &BalanceFilterBar::edited);
    connect(m_expired, &QCheckBox::toggled, this, &BalanceFilterBar::edited);
    connect(m_resets, &QCheckBox::toggled, m_resetsBefore, &QWidget::setEnabled);
    connect(m_resets, &QCheckBox::toggled, this, &BalanceFilterBar::edited);
    connect(m_resetsBefore, &QDateEdit::dateChanged, debounce, qOverload<>(&QTimer::start));
    auto *belowSettles = new QTimer(this);
    belowSettles->setSingleShot(true);
    belowSettles->setInterval(400);
    connect(belowSettles, &QTimer::timeout, this, &BalanceFilterBar::belowEdited);
    connect(m_below, &QCheckBox::toggled, this, [this](bool on) {
        m_belowValue->setEnabled(on);
        m_belowUnit->setEnabled(on);
        belowEdited();
    });
    connect(m_belowValue, &QLineEdit::textEdited, belowSettles, qOverload<>(&QTimer::start));
    connect(m_belowValue, &QLineEdit::returnPressed, this, &BalanceFilterBar::belowEdited);
    connect(m_belowUnit, &QComboBox::activated, this, &BalanceFilterBar::belowEdited);
    connect(m_viewList, &QComboBox::activated, this, [this] {
        if (const auto filter = m_views.find(m_viewList->currentData().toString())) {
            setFilter(*filter);
            Q_EMIT edited();
        }
    });
    connect(m_choices, &models::FilterChoices::featuresChanged, this,
            &BalanceFilterBar::showFeatures);
    connect(m_choices, &models::FilterChoices::plansChanged, this, &BalanceFilterBar::showPlans);
    connect(m_choices, &models::FilterChoices::failed, this, &BalanceFilterBar::statusMessage);
    showFeatures();
    showPlans();
}

BalanceFilterBar::~BalanceFilterBar() = default;

void BalanceFilterBar::reloadChoices()
{
    m_choices->reload();
}

void BalanceFilterBar::focusCustomer()
{
    m_customer->setFocus(Qt::ShortcutFocusReason);
    m_customer->selectAll();
}

void BalanceFilterBar::showFeatures()
{
    const QString current = m_feature->currentData().toString();
    m_feature->clear();
    addChoice(m_feature, tr("All features"), QString());
    for (const models::FilterChoices::Choice &feature : m_choices->features())
        addChoice(m_feature, tr("%1 (%2)").arg(feature.name, feature.id), feature.id);
    m_feature->setCurrentIndex(std::max(0, m_feature->findData(current)));
}

void BalanceFilterBar::showPlans()
{
    const QString current = m_plan->currentData().toString();
    m_plan->clear();
    addChoice(m_plan, tr("Any plan"), QString());
    addChoice(m_plan, tr("No plan"), NoPlanChoice);
    for (const models::FilterChoices::Choice &plan : m_choices->plans())
        addChoice(m_plan, plan.name, plan.id);
    m_plan->setCurrentIndex(std::max(0, m_plan->findData(current)));
}

BalanceFilter BalanceFilterBar::filter() const
{
    BalanceFilter filter;
    filter.customerId = m_customer->customerId();
    filter.entityId = m_entity->isEnabled() ? m_entity->text().trimmed() : QString();
    filter.featureId = m_feature->currentData().toString();
    const QString plan = m_plan->currentData().toString();
    filter.planMode = plan.isEmpty()         ? BalanceFilter::PlanMode::Any
                      : plan == NoPlanChoice ? BalanceFilter::PlanMode::NoPlan
                                             : BalanceFilter::PlanMode::Plan;
    filter.planId = filter.planMode == BalanceFilter::PlanMode::Plan ? plan : QString();
    filter.active = m_active->isChecked();
    filter.expired = m_expired->isChecked();
    if (m_resets->isChecked())
        filter.resetsBefore = m_resetsBefore->date();
    filter.orderBy = m_orderBy;
    filter.descending = m_descending;
    if (m_below->isChecked()) // a value that does not read is no filter (belowEdited says so)
        (void)filter.setRemainingBelow(m_belowValue->text(), m_belowUnit->currentData().toBool(),
                                       locale());
    return filter;
}

void BalanceFilterBar::setFilter(const BalanceFilter &filter)
{
    const QSignalBlocker blockActive(m_active);
    const QSignalBlocker blockExpired(m_expired);
    const QSignalBlocker blockResets(m_resets);
    const QSignalBlocker blockResetsBefore(m_resetsBefore);
    const QSignalBlocker blockBelow(m_below);
    m_customer->setCustomerId(filter.customerId);
    m_entity->setEnabled(!filter.customerId.isEmpty());
    m_entity->setText(filter.entityId);
    const auto select = [](QComboBox *box, const QString &value) {
        int index = box->findData(value);
        if (index < 0) {
            addChoice(box, value, value); // a choice from a saved view not loaded yet
            index = box->count() - 1;
        }
        box->setCurrentIndex(index);
    };
    select(m_feature, filter.featureId);
    select(m_plan, filter.planMode == BalanceFilter::PlanMode::Any      ? QString()
                   : filter.planMode == BalanceFilter::PlanMode::NoPlan ? NoPlanChoice
                                                                        : filter.planId);
    m_active->setChecked(filter.active);
    m_expired->setChecked(filter.expired);
    m_orderBy = filter.orderBy;
    m_descending = filter.descending;
    const bool below = filter.remainingBelow || filter.remainingBelowPercent;
    m_below->setChecked(below);
    m_belowValue->setEnabled(below);
    m_belowUnit->setEnabled(below);
    if (filter.remainingBelowPercent)
        m_belowValue->setText(locale().toString(*filter.remainingBelowPercent));
    else if (filter.remainingBelow)
        m_belowValue->setText(
            filter.remainingBelow->toString().replace(u'.', locale().decimalPoint()));
    if (below)
        m_belowUnit->setCurrentIndex(filter.remainingBelowPercent ? 0 : 1);
    m_resets->setChecked(filter.resetsBefore.has_value());
    m_resetsBefore->setEnabled(filter.resetsBefore.has_value());
    if (filter.resetsBefore)
        m_resetsBefore->setDate(*filter.resetsBefore);
}

void BalanceFilterBar::saveView()
{
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Save view"), tr("Name of the view:"), QLineEdit::Normal,
                              m_viewList->currentData().toString(), &ok)
            .trimmed();
    if (!ok || name.isEmpty())
        return;
    m_views.save(name, filter());
    refreshViewList();
    m_viewList->setCurrentIndex(m_viewList->findData(name));
}

void BalanceFilterBar::exportViews()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export views"), QString(), tr("Views (*.json)"));
    if (path.isEmpty())
        return;
    if (auto written = m_views.writeFile(path); !written)
        QMessageBox::warning(this, tr("Export views"), written.error().message);
}

void BalanceFilterBar::importViews()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import views"), QString(), tr("Views (*.json)"));
    if (path.isEmpty())
        return;
    if (auto merged = m_views.mergeFile(path); !merged)
        QMessageBox::warning(this, tr("Import views"),
                             tr("%1 was not imported: %2").arg(path, merged.error().message));
    else
        refreshViewList();
}

void BalanceFilterBar::refreshViewList()
{
    m_viewList->clear();
    for (const models::SavedViews::View &view : m_views.views())
        addChoice(m_viewList, view.name, view.name);
}

void BalanceFilterBar::setOrder(api::BalanceOrder orderBy, bool descending)
{
    m_orderBy = orderBy;
    m_descending = descending;
}

void BalanceFilterBar::belowEdited()
{
    if (m_below->isChecked()) {
        models::BalanceFilter probe;
        const QString problem = probe.setRemainingBelow(
            m_belowValue->text(), m_belowUnit->currentData().toBool(), locale());
        m_belowValue->setStyleSheet(problem.isEmpty() ? QString()
                                                      : QStringLiteral("color:#c62828"));
        m_belowValue->setToolTip(problem);
        if (!problem.isEmpty())
            return Q_EMIT statusMessage(problem);
    }
    Q_EMIT edited();
}

} // namespace md::views
