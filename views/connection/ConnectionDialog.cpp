#include "views/connection/ConnectionDialog.h"

#include "models/connection/KeyStore.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QUrl>
#include <QVBoxLayout>

namespace md::views {

using models::Connection;

ConnectionDialog::ConnectionDialog(QWidget *parent)
    : QDialog(parent)
    , m_recent(new QListWidget(this))
    , m_sqlite(new QRadioButton(tr("&Embedded workspace file (SQLite)"), this))
    , m_postgres(new QRadioButton(tr("&Shared PostgreSQL database"), this))
    , m_remote(new QRadioButton(tr("&Remote billing server"), this))
    , m_file(new QLineEdit(this))
    , m_postgresUrl(new QLineEdit(this))
    , m_serverUrl(new QLineEdit(this))
    , m_key(new QLineEdit(this))
    , m_test(new QPushButton(tr("&Test connection"), this))
    , m_testResult(new QLabel(this))
    , m_keychainNote(new QLabel(this))
{
    setWindowTitle(tr("Connect"));
    m_recent->setObjectName(QStringLiteral("recentConnections"));
    for (const Connection &recent : models::RecentConnections::load()) {
        auto *item = new QListWidgetItem(recent.displayName(), m_recent);
        item->setData(Qt::UserRole, recent.serialized());
    }
    m_file->setPlaceholderText(tr("/path/to/workspace.db (created if missing)"));
    m_postgresUrl->setPlaceholderText(tr("postgresql://user:password@host:5432/database"));
    m_serverUrl->setPlaceholderText(tr("https://billing.example.com"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("sk_test_… or sk_live_…"));
    m_key->setObjectName(QStringLiteral("apiKey"));
    // Each field as wide as its example, in whatever language, so no hint
    // is cut ("/path/to/workspa…").
    for (QLineEdit *field : {m_file, m_postgresUrl, m_serverUrl, m_key})
        field->setMinimumWidth(field->fontMetrics().horizontalAdvance(field->placeholderText()) +
                               2 * field->fontMetrics().averageCharWidth() + 12);
    m_testResult->setWordWrap(true);
    m_keychainNote->setWordWrap(true);
    auto *browse = new QPushButton(tr("&Browse…"), this);

    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file);
    fileRow->addWidget(browse);
    auto *form = new QFormLayout;
    form->addRow(m_sqlite);
    form->addRow(tr("File:"), fileRow);
    form->addRow(m_postgres);
    form->addRow(tr("URL:"), m_postgresUrl);
    form->addRow(m_remote);
    form->addRow(tr("Server:"), m_serverUrl);
    form->addRow(tr("API key:"), m_key);
    form->addRow(m_test, m_testResult);
    form->addRow(m_keychainNote);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("&Connect"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Recent connections:"), this));
    layout->addWidget(m_recent);
    layout->addLayout(form);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Workspace file"), m_file->text(), tr("Workspaces (*.db);;All files (*)"),
            nullptr, QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty()) {
            m_file->setText(path);
            m_sqlite->setChecked(true);
        }
    });
    // A click fills the form; Enter or a double-click connects at once.
    const auto pick = [this](QListWidgetItem *item) {
        if (const auto recent = Connection::fromSerialized(item->data(Qt::UserRole).toString()))
            setConnection(*recent);
    };
    connect(m_recent, &QListWidget::itemClicked, this, pick);
    connect(m_recent, &QListWidget::itemActivated, this, [this, pick](QListWidgetItem *item) {
        pick(item);
        if (m_ok->isEnabled())
            accept();
    });
    connect(m_test, &QPushButton::clicked, this, &ConnectionDialog::testConnection);
    for (QRadioButton *radio : {m_sqlite, m_postgres, m_remote})
        connect(radio, &QRadioButton::toggled, this, &ConnectionDialog::updateEnabled);
    for (QLineEdit *edit : {m_file, m_postgresUrl, m_serverUrl, m_key})
        connect(edit, &QLineEdit::textChanged, this, &ConnectionDialog::updateEnabled);
    m_sqlite->setChecked(true);
    updateEnabled();
    models::KeyStore::probe().then(this, [this](models::KeyStore::Keychain) { updateEnabled(); });
}

ConnectionDialog::~ConnectionDialog() = default;

void ConnectionDialog::setConnection(const Connection &connection)
{
    switch (connection.kind) {
    case Connection::Kind::Sqlite:
        m_sqlite->setChecked(true);
        m_file->setText(connection.location);
        break;
    case Connection::Kind::Postgres:
        m_postgres->setChecked(true);
        m_postgresUrl->setText(connection.location);
        break;
    case Connection::Kind::Remote:
        m_remote->setChecked(true);
        m_serverUrl->setText(connection.location);
        models::KeyStore::read(connection.location).then(this, [this](const QString &key) {
            if (m_key->text().isEmpty())
                m_key->setText(key);
        });
        break;
    }
}

Connection ConnectionDialog::connection() const
{
    if (m_postgres->isChecked())
        return {Connection::Kind::Postgres, m_postgresUrl->text().trimmed()};
    if (m_remote->isChecked())
        return {Connection::Kind::Remote, m_serverUrl->text().trimmed()};
    return {Connection::Kind::Sqlite, m_file->text().trimmed()};
}

QString ConnectionDialog::apiKey() const
{
    return m_remote->isChecked() ? m_key->text().trimmed() : QString();
}

void ConnectionDialog::testConnection()
{
    const QUrl url(m_serverUrl->text().trimmed());
    m_testResult->setText(tr("Connecting…"));
    m_test->setEnabled(false);
    m_probe.probe(url, m_key->text().trimmed())
        .then(this, [this](const api::Result<backend::ConnectionInfo> &info) {
            m_test->setEnabled(true);
            const bool ok = info.ok();
            const QString message =
                ok ? tr("Connected: organization %1, %2 environment.")
                         .arg(info.value().orgSlug, info.value().environment)
                   : tr("Failed: %1").arg(models::ServerProbe::said(info.error()));
            m_testResult->setText(message);
            Q_EMIT tested(ok, message);
        });
}

void ConnectionDialog::updateEnabled()
{
    m_file->setEnabled(m_sqlite->isChecked());
    m_postgresUrl->setEnabled(m_postgres->isChecked());
    m_serverUrl->setEnabled(m_remote->isChecked());
    m_key->setEnabled(m_remote->isChecked());
    const QUrl server(m_serverUrl->text().trimmed());
    const bool serverOk = server.isValid() && (server.scheme() == QLatin1StringView("http") ||
                                               server.scheme() == QLatin1StringView("https"));
    m_test->setEnabled(m_remote->isChecked() && serverOk && !m_key->text().trimmed().isEmpty());
    using Keychain = models::KeyStore::Keychain;
    const Keychain keychain = models::KeyStore::state();
    m_keychainNote->setText(
        !m_remote->isChecked()          ? QString()
        : keychain == Keychain::Reached ? tr("The key is kept in your system keychain.")
        : keychain == Keychain::Absent
            ? tr("No system keychain is available: the key is kept for this session only "
                 "and you will be asked again next time.")
            : tr("Looking for a system keychain to keep the key in…"));
    bool complete = false;
    if (m_sqlite->isChecked())
        complete = !m_file->text().trimmed().isEmpty();
    else if (m_postgres->isChecked())
        complete = m_postgresUrl->text().trimmed().startsWith(QLatin1StringView("postgres"));
    else
        complete = serverOk && !m_key->text().trimmed().isEmpty();
    m_ok->setEnabled(complete);
}

} // namespace md::views
