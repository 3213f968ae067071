#include "views/admin/RewardDialog.h"

#include "models/admin/RewardListModel.h"
#include "models/common/FieldWords.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

namespace {

QTableWidget *table(const QStringList &headers, QWidget *parent)
{
    auto *widget = new QTableWidget(0, int(headers.size()), parent);
    widget->setHorizontalHeaderLabels(headers);
    widget->horizontalHeader()->setStretchLastSection(true);
    widget->verticalHeader()->hide();
    return widget;
}

QHBoxLayout *rowButtons(QTableWidget *table, const QString &add, const QString &remove,
                        QWidget *parent, const std::function<void()> &added,
                        const std::function<void()> &changed)
{
    auto *addButton = new QPushButton(add, parent);
    auto *removeButton = new QPushButton(remove, parent);
    QObject::connect(addButton, &QPushButton::clicked, parent, added);
    QObject::connect(removeButton, &QPushButton::clicked, parent, [table, changed] {
        if (table->currentRow() >= 0)
            table->removeRow(table->currentRow());
        changed();
    });
    auto *row = new QHBoxLayout;
    row->addWidget(addButton);
    row->addWidget(removeButton);
    row->addStretch(1);
    return row;
}

QSpinBox *spin(qint64 value, int minimum, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(minimum, 100000000);
    box->setValue(int(value));
    return box;
}

} // namespace

RewardDialog::RewardDialog(models::RewardListModel *rewards, const models::Reward &reward,
                           QWidget *parent)
    : FormDialog(parent)
    , m_rewards(rewards)
    , m_before(reward)
    , m_coupon(std::holds_alternative<api::CouponRecord>(reward))
    , m_name(new QLineEdit(this))
    , m_codes(table(m_coupon ? QStringList{tr("Code"), tr("Redemptions"), tr("First purchase only")}
                             : QStringList{tr("Code"), tr("Max uses")},
                    this))
{
    setWindowTitle(tr("Edit reward %1").arg(models::RewardEdit::id(reward)));
    resize(760, 560);
    const models::RewardForm form = models::RewardForm::from(reward);
    m_name->setText(form.name);
    auto *general = new QFormLayout;
    general->addRow(tr("&Name:"), m_name);
    auto *edit = new QWidget(this);
    auto *layout = new QVBoxLayout(edit);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(general);
    const auto changed = [this] { check(); };
    if (m_coupon) {
        m_plans = new QLineEdit(form.planIds, this);
        m_plans->setPlaceholderText(tr("plan ids, separated by commas"));
        general->addRow(tr("&Plans:"), m_plans);
        connect(m_plans, &QLineEdit::textChanged, this, changed);
    } else {
        m_grants = table({tr("Feature"), tr("Amount"), tr("Expires every"), tr("Length")}, this);
        for (const models::RewardForm::Grant &grant : form.grants)
            addGrantRow(grant);
        layout->addWidget(new QLabel(tr("Grants:"), this));
        layout->addWidget(m_grants, 1);
        layout->addLayout(rowButtons(
            m_grants, tr("Add &grant"), tr("Remove g&rant"), this,
            [this] {
                addGrantRow({});
                m_grants->setCurrentCell(m_grants->rowCount() - 1, 0);
                m_grants->editItem(m_grants->item(m_grants->rowCount() - 1, 0));
                check();
            },
            changed));
        connect(m_grants, &QTableWidget::itemChanged, this, changed);
    }
    for (const models::RewardForm::Code &code : form.codes)
        addCodeRow(code);
    layout->addWidget(new QLabel(tr("Promo codes:"), this));
    layout->addWidget(m_codes, 1);
    layout->addLayout(rowButtons(
        m_codes, tr("Add &code"), tr("Remove c&ode"), this, [this] { addCode(); }, changed));
    setForm(edit);
    connect(m_name, &QLineEdit::textChanged, this, changed);
    connect(m_codes, &QTableWidget::itemChanged, this, changed);
    check();
}

void RewardDialog::addCode()
{
    addCodeRow({});
    m_codes->setCurrentCell(m_codes->rowCount() - 1, 0);
    // The new code's cell is open for typing, as the button promises.
    m_codes->editItem(m_codes->item(m_codes->rowCount() - 1, 0));
    check();
}

void RewardDialog::addGrantRow(const models::RewardForm::Grant &grant)
{
    const QSignalBlocker quiet(m_grants);
    const int row = m_grants->rowCount();
    m_grants->insertRow(row);
    m_grants->setItem(row, 0, new QTableWidgetItem(grant.featureId));
    m_grants->setItem(row, 1, new QTableWidgetItem(grant.included));
    auto *expiry = new QComboBox(m_grants);
    expiry->addItem(tr("never"), QString());
    for (const QString &word : {u"day"_s, u"week"_s, u"month"_s, u"year"_s})
        expiry->addItem(word, word);
    expiry->setCurrentIndex(std::max(0, expiry->findData(grant.expiryType)));
    m_grants->setCellWidget(row, 2, expiry);
    auto *length = spin(grant.expiryLength, 1, m_grants);
    m_grants->setCellWidget(row, 3, length);
    connect(expiry, &QComboBox::currentIndexChanged, this, [this] { check(); });
    connect(length, &QSpinBox::valueChanged, this, [this] { check(); });
}

void RewardDialog::addCodeRow(const models::RewardForm::Code &code)
{
    const QSignalBlocker quiet(m_codes);
    const int row = m_codes->rowCount();
    m_codes->insertRow(row);
    m_codes->setItem(row, 0, new QTableWidgetItem(code.code));
    auto *limit = spin(code.limit, 0, m_codes);
    limit->setSpecialValueText(tr("unlimited")); // 0 (docs/api.md, "Rewards")
    m_codes->setCellWidget(row, 1, limit);
    connect(limit, &QSpinBox::valueChanged, this, [this] { check(); });
    if (m_coupon) {
        auto *first = new QTableWidgetItem;
        first->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        first->setCheckState(code.firstTimeOnly ? Qt::Checked : Qt::Unchecked);
        m_codes->setItem(row, 2, first);
    }
}

models::RewardForm RewardDialog::form() const
{
    models::RewardForm form;
    form.coupon = m_coupon;
    form.name = m_name->text();
    if (m_plans)
        form.planIds = m_plans->text();
    for (int r = 0; m_grants && r < m_grants->rowCount(); ++r)
        form.grants.append(
            {m_grants->item(r, 0)->text(), m_grants->item(r, 1)->text(),
             static_cast<QComboBox *>(m_grants->cellWidget(r, 2))->currentData().toString(),
             static_cast<QSpinBox *>(m_grants->cellWidget(r, 3))->value()});
    for (int r = 0; r < m_codes->rowCount(); ++r)
        form.codes.append({m_codes->item(r, 0)->text(),
                           static_cast<QSpinBox *>(m_codes->cellWidget(r, 1))->value(),
                           m_coupon && m_codes->item(r, 2)->checkState() == Qt::Checked});
    return form;
}

QString RewardDialog::changes(QList<models::FieldChange> *changes)
{
    auto request = models::RewardEdit::request(m_before, form());
    m_request = request ? std::optional(request.value()) : std::nullopt;
    if (!request)
        return models::FieldWords::sentence(request.error());
    *changes = models::RewardEdit::changes(m_before, *m_request);
    return {};
}

void RewardDialog::submit()
{
    if (!m_request)
        return;
    m_rewards->save(*m_request)
        .then(this, [this](const api::Result<api::UpdateRewardResponse> &saved) {
            if (!saved) {
                saveFailed(saved.error());
                return;
            }
            const models::Reward after = std::visit(
                [](const auto &record) { return models::Reward(record); }, saved.value().reward);
            Q_EMIT this->saved(m_before, after);
            accept();
        });
}

} // namespace md::views
