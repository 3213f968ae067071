#include "views/admin/ProductDialog.h"

#include "models/admin/ProductListModel.h"
#include "models/common/FieldWords.h"
#include "views/common/ChangeReview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

namespace {

const QStringList Intervals{u""_s,      u"minute"_s,  u"hour"_s,        u"day"_s, u"week"_s,
                            u"month"_s, u"quarter"_s, u"semi_annual"_s, u"year"_s};
const QStringList UsageModels{u""_s, u"prepaid"_s, u"pay_per_use"_s};

QComboBox *wordCombo(const QStringList &words, const QString &current, const QString &emptyLabel,
                     QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    for (const QString &word : words)
        combo->addItem(word.isEmpty() ? emptyLabel : word, word);
    combo->setCurrentIndex(std::max(0, combo->findData(current)));
    return combo;
}

QString comboWord(const QTableWidget *table, int row, int column)
{
    return static_cast<const QComboBox *>(table->cellWidget(row, column))->currentData().toString();
}

} // namespace

ProductDialog::ProductDialog(models::ProductListModel *products, const api::Product &product,
                             QWidget *parent)
    : FormDialog(parent)
    , m_products(products)
    , m_before(product)
    , m_id(new QLineEdit(product.id, this))
    , m_name(new QLineEdit(product.name, this))
    , m_group(new QLineEdit(product.group.value_or(QString()), this))
    , m_addOn(new QCheckBox(tr("Can be bought &alongside other products"), this))
    , m_default(new QCheckBox(tr("&Default product"), this))
    , m_archived(new QCheckBox(tr("A&rchived"), this))
    , m_version(new QSpinBox(this))
    , m_items(new QTableWidget(0, ItemColumnCount, this))
    , m_trial(new QGroupBox(tr("&Free trial"), this))
    , m_trialLength(new QSpinBox(this))
    , m_trialDuration(new QComboBox(this))
    , m_trialFingerprint(new QCheckBox(tr("Once per device &fingerprint"), this))
{
    setWindowTitle(tr("Edit product %1").arg(product.id));
    resize(1100, 620);
    const models::ProductForm form = models::ProductForm::from(product);
    m_group->setPlaceholderText(tr("none"));
    m_addOn->setChecked(form.isAddOn);
    m_default->setChecked(form.isDefault);
    m_archived->setChecked(form.archived);
    m_version->setRange(1, 1000000);
    m_version->setValue(int(form.version));
    m_version->setToolTip(tr("Changing the items of a version customers are on adds a new "
                             "version; their history stays as it was."));

    m_items->setHorizontalHeaderLabels({tr("Feature"), tr("Included"), tr("Interval"), tr("Every"),
                                        tr("Rollover"), tr("Usage model"), tr("Price"),
                                        tr("Billing units"), tr("Tiers (up to:amount; …)"),
                                        tr("Reset when enabled")});
    m_items->horizontalHeaderItem(EveryColumn)
        ->setToolTip(tr("Resets every this many intervals (empty: every one)"));
    m_items->horizontalHeaderItem(RolloverColumn)
        ->setToolTip(tr("What a reset carries over, as max/length interval: 500/2 month keeps "
                        "what is unused, at most 500 in all, for two months; all/1 month keeps "
                        "everything for a month; empty: nothing carries over"));
    m_items->horizontalHeader()->setSectionResizeMode(TiersColumn, QHeaderView::Stretch);
    m_items->verticalHeader()->hide();
    for (const models::ProductForm::Item &item : form.items)
        addItemRow(item);
    m_items->resizeColumnsToContents();
    auto *addItem = new QPushButton(tr("&Add item"), this);
    auto *removeItem = new QPushButton(tr("Re&move item"), this);

    m_trial->setCheckable(true);
    m_trial->setChecked(form.freeTrial);
    m_trialLength->setRange(1, 3650);
    m_trialLength->setValue(int(form.trialLength));
    for (const QString &word : {u"day"_s, u"month"_s, u"year"_s})
        m_trialDuration->addItem(word, word);
    m_trialDuration->setCurrentIndex(m_trialDuration->findData(form.trialDuration));
    m_trialFingerprint->setChecked(form.trialUniqueFingerprint);
    auto *trialLayout = new QHBoxLayout(m_trial);
    trialLayout->addWidget(m_trialLength);
    trialLayout->addWidget(m_trialDuration);
    trialLayout->addWidget(m_trialFingerprint, 1);

    auto *general = new QFormLayout;
    general->addRow(tr("&Id:"), m_id);
    general->addRow(tr("&Name:"), m_name);
    general->addRow(tr("&Group:"), m_group);
    general->addRow(tr("V&ersion:"), m_version);
    general->addRow(QString(), m_addOn);
    general->addRow(QString(), m_default);
    general->addRow(QString(), m_archived);
    auto *itemButtons = new QHBoxLayout;
    itemButtons->addWidget(addItem);
    itemButtons->addWidget(removeItem);
    itemButtons->addStretch(1);
    auto *edit = new QWidget(this);
    auto *editLayout = new QVBoxLayout(edit);
    editLayout->setContentsMargins(0, 0, 0, 0);
    editLayout->addLayout(general);
    editLayout->addWidget(new QLabel(tr("Items:"), this));
    editLayout->addWidget(m_items, 1);
    editLayout->addLayout(itemButtons);
    editLayout->addWidget(m_trial);
    setForm(edit);

    connect(addItem, &QPushButton::clicked, this, [this] {
        addItemRow({});
        m_items->setCurrentCell(m_items->rowCount() - 1, FeatureColumn);
        m_items->editItem(m_items->currentItem());
        check();
    });
    connect(removeItem, &QPushButton::clicked, this, [this] {
        if (m_items->currentRow() >= 0)
            m_items->removeRow(m_items->currentRow());
        check();
    });
    for (QLineEdit *line : {m_id, m_name, m_group})
        connect(line, &QLineEdit::textChanged, this, &ProductDialog::check);
    for (QCheckBox *box : {m_addOn, m_default, m_archived, m_trialFingerprint})
        connect(box, &QCheckBox::toggled, this, &ProductDialog::check);
    connect(m_trial, &QGroupBox::toggled, this, &ProductDialog::check);
    for (QSpinBox *spin : {m_version, m_trialLength})
        connect(spin, &QSpinBox::valueChanged, this, &ProductDialog::check);
    connect(m_trialDuration, &QComboBox::currentIndexChanged, this, &ProductDialog::check);
    connect(m_items, &QTableWidget::itemChanged, this, &ProductDialog::check);

    m_products->features().then(this, [this](const api::Result<api::Page<api::FeatureInfo>> &f) {
        if (!f)
            return saveFailed(
                tr("The features could not be loaded, so items are not checked against them: %1")
                    .arg(f.error().message));
        for (const api::FeatureInfo &feature : f.value().list)
            m_features.insert(feature.id);
        check();
    });
    check();
}

void ProductDialog::addItemRow(const models::ProductForm::Item &item)
{
    const QSignalBlocker quiet(m_items);
    const int row = m_items->rowCount();
    m_items->insertRow(row);
    auto *feature = new QTableWidgetItem(item.featureId);
    feature->setData(OriginalRole,
                     qlonglong(item.original)); // follows the row when others are removed
    m_items->setItem(row, FeatureColumn, feature);
    m_items->setItem(row, IncludedColumn, new QTableWidgetItem(item.included));
    m_items->setItem(row, EveryColumn, new QTableWidgetItem(item.every));
    m_items->setItem(row, RolloverColumn, new QTableWidgetItem(item.rollover));
    m_items->setItem(row, PriceColumn, new QTableWidgetItem(item.price));
    m_items->setItem(row, UnitsColumn, new QTableWidgetItem(item.billingUnits));
    m_items->setItem(row, TiersColumn, new QTableWidgetItem(item.tiers));
    auto *reset = new QTableWidgetItem;
    reset->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    reset->setCheckState(item.resetUsageWhenEnabled ? Qt::Checked : Qt::Unchecked);
    m_items->setItem(row, ResetColumn, reset);
    auto *interval = wordCombo(Intervals, item.interval, tr("one-off"), m_items);
    auto *usage = wordCombo(UsageModels, item.usageModel, tr("(from the feature)"), m_items);
    m_items->setCellWidget(row, IntervalColumn, interval);
    m_items->setCellWidget(row, UsageModelColumn, usage);
    for (QComboBox *combo : {interval, usage})
        connect(combo, &QComboBox::currentIndexChanged, this, &ProductDialog::check);
}

models::ProductForm ProductDialog::form() const
{
    models::ProductForm form;
    form.id = m_id->text();
    form.name = m_name->text();
    form.group = m_group->text();
    form.isAddOn = m_addOn->isChecked();
    form.isDefault = m_default->isChecked();
    form.archived = m_archived->isChecked();
    form.version = m_version->value();
    for (int r = 0; r < m_items->rowCount(); ++r) {
        const auto text = [&](int column) {
            return m_items->item(r, column) ? m_items->item(r, column)->text() : QString();
        };
        const QTableWidgetItem *feature = m_items->item(r, FeatureColumn);
        form.items.append({text(FeatureColumn), text(IncludedColumn),
                           comboWord(m_items, r, IntervalColumn), text(EveryColumn),
                           text(RolloverColumn), comboWord(m_items, r, UsageModelColumn),
                           text(PriceColumn), text(UnitsColumn), text(TiersColumn),
                           m_items->item(r, ResetColumn)->checkState() == Qt::Checked,
                           feature ? feature->data(OriginalRole).toLongLong() : -1});
    }
    form.freeTrial = m_trial->isChecked();
    form.trialDuration = m_trialDuration->currentData().toString();
    form.trialLength = m_trialLength->value();
    form.trialUniqueFingerprint = m_trialFingerprint->isChecked();
    return form;
}

QString ProductDialog::changes(QList<models::FieldChange> *changes)
{
    const models::ProductForm current = form();
    auto request = models::ProductEdit::request(m_before, current);
    QString problem; // in words
    QString path;    // the wire path it is about, whose cell is marked
    if (!request) {
        problem = models::FieldWords::sentence(request.error());
        path = models::FieldWords::path(request.error());
    } else if (!m_features.isEmpty()) {
        for (qsizetype r = 0; r < current.items.size(); ++r)
            if (!current.items.at(r).featureId.trimmed().isEmpty() &&
                !m_features.contains(current.items.at(r).featureId.trimmed())) {
                problem = tr("Item %1: there is no feature \"%2\"")
                              .arg(r + 1)
                              .arg(current.items.at(r).featureId.trimmed());
                path = u"items[%1].feature_id"_s.arg(r);
            }
    }
    markProblem(path);
    m_request = problem.isEmpty() ? std::optional(request.value()) : std::nullopt;
    if (m_request)
        *changes = models::ProductEdit::changes(m_before, *m_request);
    return problem;
}

// The cell at the problem's wire path stays marked until it is fixed.
void ProductDialog::markProblem(const QString &path)
{
    static const QRegularExpression itemPath(u"^items\\[(\\d+)\\]\\.(\\w+)"_s);
    const QRegularExpressionMatch match = itemPath.match(path);
    const QSignalBlocker quiet(m_items);
    for (int r = 0; r < m_items->rowCount(); ++r)
        for (int c = 0; c < ItemColumnCount; ++c)
            if (QTableWidgetItem *cell = m_items->item(r, c))
                cell->setBackground(QBrush());
    if (!match.hasMatch())
        return;
    static const QHash<QString, int> columns{
        {u"feature_id"_s, FeatureColumn},   {u"included_usage"_s, IncludedColumn},
        {u"interval_count"_s, EveryColumn}, {u"rollover"_s, RolloverColumn},
        {u"price"_s, PriceColumn},          {u"billing_units"_s, UnitsColumn},
        {u"tiers"_s, TiersColumn}};
    if (QTableWidgetItem *cell =
            m_items->item(match.captured(1).toInt(), columns.value(match.captured(2), TiersColumn)))
        cell->setBackground(QColor(220, 50, 50, 80));
}

void ProductDialog::reviewing()
{
    if (!m_request)
        return;
    review()->setNote(tr("Asking the server what Save will store…"));
    const quint64 asked = ++m_previews;
    m_products->preview(m_before.id, *m_request)
        .then(this, [this, asked, request = *m_request](const api::Result<api::Product> &stored) {
            if (asked != m_previews || !isReviewing())
                return;
            review()->setNote(
                stored ? models::ProductEdit::versionNote(m_before, request, stored.value())
                       : tr("Save would be refused: %1")
                             .arg(models::FieldWords::sentence(stored.error())));
        });
}

void ProductDialog::submit()
{
    if (!m_request)
        return;
    m_products->save(m_before.id, *m_request)
        .then(this, [this](const api::Result<api::Product> &saved) {
            if (!saved) {
                saveFailed(saved.error());
                return;
            }
            Q_EMIT this->saved(m_before, saved.value());
            accept();
        });
}

} // namespace md::views
