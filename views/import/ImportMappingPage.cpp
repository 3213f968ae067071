#include "views/import/ImportMappingPage.h"

#include "models/import/ImportBatch.h"
#include "models/import/ImportProfiles.h"
#include "models/import/ImportSession.h"

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

enum Column { NameColumn, SampleColumn, FieldColumn, FeatureColumn };
// The choices of the "Is" column, in order; Usage takes a feature id.
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
    , m_columns(new QTableWidget(0, 4, this))
    , m_profiles(new QComboBox(this))
    , m_status(new QLabel(this))
{
    setTitle(tr("Mapping"));
    setSubTitle(tr("Say what each column holds. Columns named like the fields (customer_id, "
                   "plan_id, usage:api_calls, …) are mapped already."));
    m_columns->setHorizontalHeaderLabels(
        {tr("Column"), tr("First value"), tr("Is"), tr("Feature id (usage)")});
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
    layout->addWidget(m_status);

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
        auto *field = new QComboBox(m_columns);
        field->addItems({tr("(not imported)"), tr("Customer id"), tr("Name"), tr("Email"),
                         tr("Stripe id"), tr("RevenueCat id"), tr("Plan"), tr("Status"),
                         tr("Usage of a feature")});
        m_columns->setCellWidget(c, FieldColumn, field);
        m_columns->setItem(c, FeatureColumn, new QTableWidgetItem);
        connect(field, &QComboBox::currentIndexChanged, this, &ImportMappingPage::mappingEdited);
    }
    m_showing = false;
    setMapping(batch->mapping());
    reloadProfiles();
}

void ImportMappingPage::setMapping(const models::CsvMapping &mapping)
{
    m_showing = true;
    for (int c = 0; c < m_columns->rowCount(); ++c) {
        int field = Ignored;
        for (int f = CustomerId; f < Usage; ++f)
            if (mapping.*FieldMembers[f] == c)
                field = f;
        QString feature;
        for (auto it = mapping.usage.cbegin(); it != mapping.usage.cend(); ++it)
            if (it.value() == c) {
                field = Usage;
                feature = it.key();
            }
        static_cast<QComboBox *>(m_columns->cellWidget(c, FieldColumn))->setCurrentIndex(field);
        m_columns->item(c, FeatureColumn)->setText(feature);
    }
    m_showing = false;
    mappingEdited();
}

models::CsvMapping ImportMappingPage::mapping() const
{
    models::CsvMapping mapping;
    for (int c = 0; c < m_columns->rowCount(); ++c) {
        const int field =
            static_cast<const QComboBox *>(m_columns->cellWidget(c, FieldColumn))->currentIndex();
        if (field == Usage) {
            const QString feature = m_columns->item(c, FeatureColumn)->text().trimmed();
            if (!feature.isEmpty())
                mapping.usage.insert(feature, c);
        } else if (field > Ignored) {
            mapping.*FieldMembers[field] = c;
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
    m_status->setText(current.customerId < 0 ? tr("Map a column to the customer id.")
                      : current.plan < 0
                          ? tr("No plan column: customers are imported without plans.")
                          : QString());
    Q_EMIT completeChanged();
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
