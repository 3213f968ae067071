#include "views/admin/TenantsPage.h"

#include "views/admin/ProcessorKeyDialog.h"

#include "models/admin/TenantListModel.h"
#include "views/common/EditorPage.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

LinkAccountDialog::LinkAccountDialog(models::TenantListModel *tenants, const QString &selected,
                                     QWidget *parent)
    : QDialog(parent)
    , m_tenants(tenants)
    , m_tenant(new QComboBox(this))
    , m_test(new QLineEdit(this))
    , m_live(new QLineEdit(this))
    , m_problem(new QLabel(this))
    , m_link(new QPushButton(tr("&Link"), this))
{
    setWindowTitle(tr("Link processor account"));
    m_tenant->setEditable(true);
    m_tenant->addItems(tenants->tenantSlugs());
    m_tenant->setCurrentText(selected);
    m_test->setPlaceholderText(tr("acct_… (test environment)"));
    m_live->setPlaceholderText(tr("acct_… (live environment)"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(u"color:#c62828"_s);
    auto *form = new QFormLayout;
    form->addRow(tr("&Tenant organization:"), m_tenant);
    form->addRow(tr("&Test Stripe account:"), m_test);
    form->addRow(tr("Li&ve Stripe account:"), m_live);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(m_link, QDialogButtonBox::AcceptRole);
    m_link->setDefault(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("The platform's own Stripe keys are used with the tenant's "
                                    "account ids. Give at least one."),
                                 this));
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_link, &QPushButton::clicked, this, &LinkAccountDialog::link);
    connect(m_tenant, &QComboBox::currentTextChanged, this, &LinkAccountDialog::check);
    connect(m_test, &QLineEdit::textChanged, this, &LinkAccountDialog::check);
    connect(m_live, &QLineEdit::textChanged, this, &LinkAccountDialog::check);
    check();
}

void LinkAccountDialog::check()
{
    QString problem;
    if (m_tenant->currentText().trimmed().isEmpty())
        problem = tr("Choose the tenant organization.");
    else if (m_test->text().trimmed().isEmpty() && m_live->text().trimmed().isEmpty())
        problem = tr("Give a test or a live account id, or both.");
    m_problem->setText(problem);
    m_link->setEnabled(problem.isEmpty());
}

void LinkAccountDialog::link()
{
    api::LinkOrganizationRequest request;
    request.organizationSlug = m_tenant->currentText().trimmed();
    if (const QString test = m_test->text().trimmed(); !test.isEmpty())
        request.testAccountId = test;
    if (const QString live = m_live->text().trimmed(); !live.isEmpty())
        request.liveAccountId = live;
    m_link->setEnabled(false);
    m_tenants->link(request).then(
        this, [this](const api::Result<api::LinkOrganizationResponse> &answer) {
            m_link->setEnabled(true);
            if (!answer) {
                m_problem->setText(tr("Not linked: %1").arg(answer.error().message));
                return;
            }
            Q_EMIT linked(answer.value().message);
            accept();
        });
}

TenantsPage::TenantsPage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_model(new models::TenantListModel(backend, this))
    , m_table(new QTableView(this))
    , m_status(new QLabel(this))
{
    m_table->setModel(m_model);
    EditorPage::setUpTable(m_table);
    auto *link = new QPushButton(tr("&Link processor account…"), this);
    auto *stripeKey = new QPushButton(tr("Stripe &key…"), this);
    stripeKey->setObjectName(QStringLiteral("stripeKey"));
    link->setObjectName(QStringLiteral("linkAccount"));
    m_status->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(link);
    buttons->addWidget(stripeKey);
    buttons->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);
    connect(link, &QPushButton::clicked, this, &TenantsPage::linkAccount);
    connect(stripeKey, &QPushButton::clicked, this, [this, backend] {
        auto *dialog = new ProcessorKeyDialog(backend, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    connect(m_model, &models::TenantListModel::loaded, this,
            [this] { m_table->resizeColumnsToContents(); });
    connect(m_model, &models::TenantListModel::failed, this, [this](const api::ApiError &error) {
        m_status->setText(tr("Organizations could not be read: %1").arg(error.message));
    });
}

void TenantsPage::refresh()
{
    m_model->reload();
}

LinkAccountDialog *TenantsPage::linkAccount()
{
    const QModelIndex current = m_table->currentIndex();
    const QString selected = current.isValid() && m_model->organization(current.row()).masterOrgId
                                 ? m_model->organization(current.row()).slug
                                 : m_model->tenantSlugs().value(0);
    auto *dialog = new LinkAccountDialog(m_model, selected, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &LinkAccountDialog::linked, this, [this](const QString &message) {
        m_status->setText(message);
        refresh();
    });
    dialog->open();
    return dialog;
}

} // namespace md::views
