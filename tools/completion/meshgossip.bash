# bash completion for meshgossip (installed as
# share/bash-completion/completions/meshgossip): commands, each command's
# options, algorithm names from `meshgossip list`, topology and model forms.
# file names may hold blanks: split compgen's answer at newlines only
_meshgossip_files() {
  local IFS=$'\n'
  COMPREPLY+=($(compgen -f -- "$1"))
}

_meshgossip() {
  local cur prev cmd
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="list run compare tune bound table verify draw plot report platform"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  cmd=${COMP_WORDS[1]}
  case $prev in
    --algo)
      local algos
      algos=$(meshgossip list 2>/dev/null | awk '/^[a-z0-9]/ {print $1}')
      COMPREPLY=($(compgen -W "auto $algos" -- "$cur"))
      return ;;
    --problem) COMPREPLY=($(compgen -W "gossip exchange" -- "$cur")); return ;;
    --timing) COMPREPLY=($(compgen -W "sync async ranks" -- "$cur")); return ;;
    --engine) COMPREPLY=($(compgen -W "model simgrid" -- "$cur")); return ;;
    --topo) COMPREPLY=($(compgen -W "ring: line: torus: mesh: meshbus:" -- "$cur")); compopt -o nospace; return ;;
    --model)
      # the keys after the last comma: ts=3,sw<TAB> completes the switching
      local head="" item=$cur
      case $cur in *,*) head=${cur%,*}, item=${cur##*,} ;; esac
      COMPREPLY=($(compgen -P "$head" -W "switching=wormhole switching=circuit switching=saf switching=bus port=all port=one
                               contention=strict contention=shared contention=fair ts= td= tl= ell= o= or= bwf=
                               share=even share=hops routes=schedule routes=dor routes=simgrid detach= ack=
                               timing=sync timing=async timing=ranks @" -- "$item"))
      compopt -o nospace; return ;;
    --export|--export-ti|--output|-o|--plot) COMPREPLY=(); _meshgossip_files "$cur"; return ;;
    --format)
      if [ "$cmd" = verify ]; then COMPREPLY=($(compgen -W "json msccl" -- "$cur"))
      else COMPREPLY=($(compgen -W "json msccl goal ti" -- "$cur")); fi
      return ;;
    --r|--bytes|--sizes|--mem-limit|--round) return ;;
  esac
  local opts
  case $cmd in
    run) opts="--algo --problem --topo --model --r --bytes --json --export --format --mem-limit --timing --engine --export-ti" ;;
    compare) opts="--problem --topo --model --r --bytes --sizes --plot --spec --json --all --mem-limit --timing --engine" ;;
    tune) opts="--algo --topo --model --r --bytes --json --mem-limit" ;;
    bound) opts="--problem --topo --model --r --bytes --json" ;;
    table) opts="--json --mem-limit $(meshgossip table --help 2>/dev/null | awk '/^tables:/ {t = 1; next} /^$/ {t = 0} t && /^  [a-z]/ {print $1}')" ;;
    verify) opts="--json --mem-limit --format --topo --model --r --bytes --timing"; COMPREPLY=(); _meshgossip_files "$cur" ;;
    draw) opts="--algo --topo --model --r --bytes --round --all --heatmap --output --mem-limit" ;;
    report) opts="--problem --topo --model --r --bytes --sizes --output --mem-limit" ;;
    plot) opts="--output"; COMPREPLY=(); _meshgossip_files "$cur" ;;
    platform) opts="--topo --model --output" ;;
  esac
  COMPREPLY+=($(compgen -W "$opts --help" -- "$cur"))
}
complete -F _meshgossip meshgossip
