#include "views/import/ImportMappingPage.h"

#include "models/import/ImportBatch.h"
#include "models/import/ImportProfiles.h"
#include "models/import/ImportSession.h"
#include "views/import/PlanValuesDialog.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

namespace {

enum Column { NameColumn, SampleColumn, FieldColumn, AlsoColumn, FeatureColumn };
// The choices of the "Is" column, in order; Usage takes a feature id. The
// "Also" column offers the same but Usage, so one column feeds two fields
// (an email that is also the customer id).
enum Field { Ignored, CustomerId, Name, Email, StripeId, RevenueCatId, Plan, Status, Usage };
constexpr int models::CsvMapping::*FieldMembers[] = {
    nullptr,
    &models::CsvMapping::customerId,
    &models::CsvMapping::name,
    &models::CsvMapping::email,
    &models::CsvMapping::stripeId,
    &models::CsvMapping::revenueCatId,
    &models::CsvMapping::plan,
    &models::CsvMapping::status,
};

} // namespace

ImportMappingPage::ImportMappingPage(models::ImportSession *session)
    : QWizardPage()
    , m_session(session)
    , m_columns(new QTableWidget(0, 5, this))
    , m_profiles(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_planValuesButton(new QPushButton(tr("Plan &values…"), this))
{
    setTitle(tr("Mapping"));
    setSubTitle(tr("Say what each column holds. Columns named like the fields (customer_id, "
                   "plan_id, usage:api_calls, …) are mapped already."));
    m_columns->setHorizontalHeaderLabels(
        {tr("Column"), tr("First value"), tr("Is"), tr("Also"), tr("Feature id (usage)")});
    m_columns->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_columns->verticalHeader()->hide();
    m_profiles->setPlaceholderText(tr("(no profile)"));
    auto *apply = new QPushButton(tr("&Apply"), this);
    auto *save = new QPushButton(tr("Sa&ve as profile…"), this);
    auto *remove = new QPushButton(tr("&Delete profile"), this);
    auto *profileRow = new QHBoxLayout;
    auto *profileLabel = new QLabel(tr("P&rofile:"), this);
    profileLabel->setBuddy(m_profiles);
    profileRow->addWidget(profileLabel);
    profileRow->addWidget(m_profiles, 1);
    profileRow->addWidget(apply);
    profileRow->addWidget(save);
    profileRow->addWidget(remove);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(profileRow);
    layout->addWidget(m_columns, 1);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_planValuesButton);
    layout->addLayout(statusRow);
    m_planValuesButton->setToolTip(
        tr("Say which plan each value of the plan column stands for (\"Pro Monthly\" → pro)"));
    connect(m_planValuesButton, &QPushButton::clicked, this, [this] { editPlanValues(); });

    connect(apply, &QPushButton::clicked, this,
            [this] { applyProfile(m_profiles->currentText()); });
    connect(save, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name =
            QInputDialog::getText(this, tr("Save mapping"), tr("Profile name:"), QLineEdit::Normal,
                                  m_profiles->currentText(), &ok)
                .trimmed();
        if (ok && !name.isEmpty())
            saveProfile(name);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_profiles->currentIndex() < 0)
            return;
        models::ImportProfiles::remove(m_profiles->currentText());
        reloadProfiles();
    });
    connect(m_columns, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (item->column() == FeatureColumn)
            mappingEdited();
    });
}

void ImportMappingPage::initializePage()
{
    const models::ImportBatch *batch = m_session->batch();
    const QStringList &header = batch->header();
    m_showing = true;
    m_columns->setRowCount(int(header.size()));
    for (int c = 0; c < header.size(); ++c) {
        auto *name = new QTableWidgetItem(header.at(c));
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        m_columns->setItem(c, NameColumn, name);
        auto *sample =
            new QTableWidgetItem(batch->rowCount() > 0 ? batch->row(0).cells.value(c) : QString());
        sample->setFlags(sample->flags() & ~Qt::ItemIsEditable);
        m_columns->setItem(c, SampleColumn, sample);
        const QStringList fields{tr("(not imported)"), tr("Customer id"), tr("Name"),
                                 tr("Email"),          tr("Stripe id"),   tr("RevenueCat id"),
                                 tr("Plan"),           tr("Status")};
        auto *field = new QComboBox(m_columns);
        field->addItems(fields);
        field->addItem(tr("Usage of a feature"));
        field->setAccessibleName(tr("What column %1 is").arg(header.at(c)));
        m_columns->setCellWidget(c, FieldColumn, field);
        auto *also = new QComboBox(m_columns);
        also->addItems(fields);
        also->setItemText(Ignored, tr("(nothing else)"));
        also->setAccessibleName(tr("What column %1 also is").arg(header.at(c)));
        m_columns->setCellWidget(c, AlsoColumn, also);
        m_columns->setItem(c, FeatureColumn, new QTableWidgetItem);
        for (QComboBox *combo : {field, also})
            connect(combo, &QComboBox::currentIndexChanged, this,
                    &ImportMappingPage::mappingEdited);
    }
    m_showing = false;
    setMapping(batch->mapping());
    reloadProfiles();
}

void ImportMappingPage::setMapping(const models::CsvMapping &mapping)
{
    m_showing = true;
    m_planValues = mapping.planValues;
    for (int c = 0; c < m_columns->rowCount(); ++c) {
        // The fields this column feeds: the first is what it is, a second what it also is.
        QList<int> fields;
        QString feature;
        for (auto it = mapping.usage.cbegin(); it != mapping.usage.cend(); ++it)
            if (it.value() == c && feature.isEmpty()) {
                fields.append(Usage);
                feature = it.key();
            }
        for (int f = CustomerId; f < Usage; ++f)
            if (mapping.*FieldMembers[f] == c)
                fields.append(f);
        static_cast<QComboBox *>(m_columns->cellWidget(c, FieldColumn))
            ->setCurrentIndex(fields.value(0, Ignored));
        static_cast<QComboBox *>(m_columns->cellWidget(c, AlsoColumn))
            ->setCurrentIndex(fields.value(1, Ignored));
        m_columns->item(c, FeatureColumn)->setText(feature);
    }
    m_showing = false;
    mappingEdited();
}

models::CsvMapping ImportMappingPage::mapping() const
{
    models::CsvMapping mapping;
    mapping.planValues = m_planValues;
    for (int c = 0; c < m_columns->rowCount(); ++c) {
        for (const int column : {FieldColumn, AlsoColumn}) {
            const int field =
                static_cast<const QComboBox *>(m_columns->cellWidget(c, column))->currentIndex();
            if (field == Usage) {
                const QString feature = m_columns->item(c, FeatureColumn)->text().trimmed();
                if (!feature.isEmpty())
                    mapping.usage.insert(feature, c);
            } else if (field > Ignored) {
                mapping.*FieldMembers[field] = c;
            }
        }
    }
    return mapping;
}

void ImportMappingPage::mappingEdited()
{
    if (m_showing)
        return;
    const models::CsvMapping current = mapping();
    if (!(current == m_session->batch()->mapping()))
        m_session->batch()->setMapping(current);
    m_status->setText(
        current.customerId < 0 ? tr("Map a column to the customer id.")
        : current.plan < 0     ? tr("No plan column: customers are imported without plans.")
        : current.planValues.isEmpty()
            ? QString()
            : tr("%Ln plan value(s) mapped to plan ids.", nullptr, int(current.planValues.size())));
    m_planValuesButton->setEnabled(current.plan >= 0);
    Q_EMIT completeChanged();
}

PlanValuesDialog *ImportMappingPage::editPlanValues()
{
    const models::ImportBatch *batch = m_session->batch();
    auto *dialog = new PlanValuesDialog(batch->columnValues(batch->mapping().plan),
                                        m_session->plans(), m_planValues, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        m_planValues = dialog->applyTo(m_planValues);
        mappingEdited();
    });
    dialog->open();
    return dialog;
}

bool ImportMappingPage::applyProfile(const QString &name)
{
    const auto mapping = models::ImportProfiles::load(name, m_session->batch()->header());
    if (!mapping)
        return false;
    setMapping(*mapping);
    return true;
}

void ImportMappingPage::saveProfile(const QString &name)
{
    models::ImportProfiles::save(name, mapping(), m_session->batch()->header());
    reloadProfiles();
    m_profiles->setCurrentText(name);
}

void ImportMappingPage::reloadProfiles()
{
    const QString current = m_profiles->currentText();
    m_profiles->clear();
    m_profiles->addItems(models::ImportProfiles::names());
    m_profiles->setCurrentIndex(m_profiles->findText(current));
}

bool ImportMappingPage::isComplete() const
{
    return m_session->batch()->mapping().customerId >= 0;
}

} // namespace md::views
