import Foundation

/// The commit a git working tree's HEAD names, read from its files (no `git` process): `.git` as a folder or, in a
/// linked worktree, a file naming the git folder; `HEAD` as a commit or a ref, the ref looked up loose in the git
/// folder and its common folder, then in `packed-refs`.
enum GitHead {
    /// The 40 hex digits HEAD of the working tree at `root` names; nil when there is no readable repository.
    static func commit(ofTree root: String) -> String? {
        guard let gitDirectory = gitDirectory(ofTree: root), let head = read(gitDirectory + "/HEAD") else {
            return nil
        }
        guard head.hasPrefix("ref: ") else { return isCommit(head) ? head : nil }
        let ref = String(head.dropFirst("ref: ".count))
        let common = read(gitDirectory + "/commondir").map { resolve($0, against: gitDirectory) } ?? gitDirectory
        for folder in [gitDirectory, common] {
            if let loose = read(folder + "/" + ref), isCommit(loose) { return loose }
        }
        for line in (read(common + "/packed-refs") ?? "").split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[1] == ref, isCommit(String(parts[0])) { return String(parts[0]) }
        }
        return nil
    }

    /// The git folder of the tree at `root`: `.git` itself, or the folder a `.git` file's `gitdir:` line names.
    private static func gitDirectory(ofTree root: String) -> String? {
        let dotGit = root + "/.git"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { return dotGit }
        guard let line = read(dotGit), line.hasPrefix("gitdir: ") else { return nil }
        return resolve(String(line.dropFirst("gitdir: ".count)), against: root)
    }

    /// `path` as is when absolute, else relative to `folder`.
    private static func resolve(_ path: String, against folder: String) -> String {
        path.hasPrefix("/") ? path : folder + "/" + path
    }

    /// A small file's text without its surrounding white space; nil when it cannot be read.
    private static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `text` is a full commit id: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits.
    private static func isCommit(_ text: String) -> Bool {
        (text.utf8.count == 40 || text.utf8.count == 64)
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
