// API keys of remote servers, kept in the operating system's keychain
// (QtKeychain), never in settings, logs or files. Where no keychain is
// available the key is kept for this session only, and `available()` says so.
#pragma once

#include "services/api/Result.h"

#include <QFuture>
#include <QHash>
#include <QString>

namespace md::models {

class KeyStore final
{
public:
    // The key saved for `server`, or an empty string when none is saved.
    static QFuture<QString> read(const QString &server);
    // Saves the key; the result says whether the keychain took it (false:
    // kept for this session only).
    static QFuture<bool> write(const QString &server, const QString &key);
    static void forget(const QString &server);
    // Whether the last keychain operation reached a keychain; Unknown
    // before the first one (probe() makes one).
    enum class Keychain { Unknown, Reached, Absent };
    static Keychain state();
    static bool available() { return state() == Keychain::Reached; }
    // Finds out, once, whether this machine has a keychain.
    static QFuture<Keychain> probe();
    // For tests and headless use: never touch the system keychain.
    static void useSessionOnly(bool sessionOnly);
};

} // namespace md::models
